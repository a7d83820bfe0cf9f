import type { InProcessEngine } from "../db/embedded-database";
import type { SqlExecutor } from "../db/migrations";
import { INT8_ROWS_QUERY_MAX, Int8Rows } from "../lib/int8-rows";
import type { QueryVector } from "../search/hybrid-query";

/**
 * The artifact vectors of the workspaces searched recently, held in this process, for the embedded
 * engine: there an exact scan of a workspace's vectors runs on the engine's one WebAssembly thread,
 * reading each row and widening its half floats (19-22 ms for 6,000 vectors, most of a search's
 * vector statement), and the own index of a larger workspace reads 30 of its lists the same way
 * (37-41 ms at 60,000 vectors). Held here, the same nearest artifacts, exactly, take 0.2 ms at
 * 6,000 vectors and 5 ms at 60,000 (nearestHeld; docs/performance.md, "What each change bought").
 * PostgreSQL compares half floats natively and in parallel with other requests, and does not use
 * this.
 *
 * The held vectors are always those the database holds: triggers announce each change to a
 * workspace's searchable vectors, naming the artifacts whose rows changed (a NOTIFY, delivered in
 * this process when the writing transaction commits, before its caller resumes). The copy is
 * kept and those artifacts' rows are read again at once, by one statement of their rows alone;
 * a search that comes before that patch is in waits for it (a few milliseconds), so it never
 * answers from vectors the database no longer holds. A change too large to patch (a workspace's
 * deletion, a truncation) drops the copy, and searches use the statement while a new copy is
 * read. The embedded engine has one owner, this process (embedded-database.ts), so no write
 * escapes it.
 */

/**
 * The most vectors held for one workspace: a workspace of 10,000 realistic artifacts has about
 * 60,000. A larger one searches its own index.
 */
export const IN_PROCESS_WORKSPACE_MAX_VECTORS = 80_000;

/**
 * The most vectors held for all workspaces together: a vector of 512 dimensions takes 1,024 bytes
 * as stored, 512 as codes and 32 for its figures, so 80,000 take about 125 MB.
 */
export const IN_PROCESS_MAX_VECTORS = 80_000;

/**
 * The most workspaces whose vectors are held at once. Each copy's codes live in a WebAssembly
 * memory of their own (src/lib/int8-rows.ts), for which V8 reserves 8 GiB of address space (not of
 * memory): about 16,000 of them fill a 64-bit process's. Of the two bounds, IN_PROCESS_MAX_VECTORS
 * comes first unless the workspaces held average under 312 vectors.
 */
export const IN_PROCESS_MAX_WORKSPACES = 256;

/**
 * A copy dropped by a change too large to patch (a workspace's vectors changed by one statement) is
 * read again at most this often, and no sooner than `RELOAD_SHARE` times its last read took: a
 * read holds the engine's one thread (1.6 s for 60,000 vectors), so the reads of a large
 * workspace take at most a tenth of the engine.
 */
export const IN_PROCESS_RELOAD_INTERVAL_MS = 2_000;
const RELOAD_SHARE = 10;

/** A workspace found to have more vectors than are held for one is not read again for this long, however it changes. */
export const IN_PROCESS_TOO_LARGE_RECHECK_MS = 10 * 60_000;

const CHANNEL = "wsi_artifact_vectors";

/**
 * A statement's changes to more of a workspace's artifacts than this are announced as a change to
 * the whole workspace, whose copy is read again: a workspace's deletion would otherwise announce
 * each of its artifacts.
 */
const ANNOUNCED_ARTIFACTS_MAX = 1_000;

/** The artifacts' rows one patch reads at most: more changed since are read by the next. */
const PATCH_ARTIFACTS = 250;

/** Artifacts changed and not yet read again past which a copy is dropped and read again whole. */
const PATCH_BACKLOG_MAX = 5_000;

/** The changed rows' workspaces and artifacts, each once, from a trigger's transition tables. */
const changedArtifacts = (tables: string[]) =>
  tables.map((table) => `SELECT DISTINCT workspace_id, artifact_id FROM ${table} WHERE embedding IS NOT NULL`).join(" UNION ");

/**
 * The triggers that announce changes: for the rows with a vector a statement inserted, updated
 * (with one before or after) or deleted, their workspace and artifact as `<workspace> <artifact>`
 * (PostgreSQL folds a transaction's identical notifications into one), or the workspace alone for
 * a statement that changed more than ANNOUNCED_ARTIFACTS_MAX of its artifacts. Rows without a
 * vector are not searched, so a validation's pending rows and the indexer's leases announce
 * nothing. An insert is announced row by row behind a WHEN that only the rare row with a vector
 * passes: a statement trigger's transition table cost every push 0.3 ms. Updates and deletes come
 * in batches (the indexer's, a workspace's deletion) and are announced per statement, from their
 * transition tables (an update trigger with them cannot name its columns). A TRUNCATE announces
 * every workspace (''). Ids are letters, digits and underscores (src/lib/ids.ts), so a space parts them.
 */
const announceFrom = (tables: string[]) => `
    FOR workspace, artifact IN
      WITH touched AS (${changedArtifacts(tables)}),
           sizes AS (SELECT workspace_id, count(*) AS artifacts FROM touched GROUP BY workspace_id)
      SELECT s.workspace_id, NULL FROM sizes s WHERE s.artifacts > ${ANNOUNCED_ARTIFACTS_MAX}
      UNION ALL
      SELECT t.workspace_id, t.artifact_id FROM touched t JOIN sizes s USING (workspace_id) WHERE s.artifacts <= ${ANNOUNCED_ARTIFACTS_MAX}
    LOOP
      PERFORM pg_notify('${CHANNEL}', CASE WHEN artifact IS NULL THEN workspace ELSE workspace || ' ' || artifact END);
    END LOOP;`;

const ANNOUNCE_CHANGES = `
CREATE OR REPLACE FUNCTION wsi_announce_artifact_vectors() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  workspace text;
  artifact text;
BEGIN
  IF TG_LEVEL = 'ROW' THEN
    PERFORM pg_notify('${CHANNEL}', NEW.workspace_id || ' ' || NEW.artifact_id);
  ELSIF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('${CHANNEL}', '');
  ELSIF TG_OP = 'UPDATE' THEN${announceFrom(["changed", "before"])}
  ELSE${announceFrom(["changed"])}
  END IF;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER wsi_artifact_vectors_inserted AFTER INSERT ON artifact_embeddings
  FOR EACH ROW WHEN (NEW.embedding IS NOT NULL) EXECUTE FUNCTION wsi_announce_artifact_vectors();
CREATE OR REPLACE TRIGGER wsi_artifact_vectors_updated AFTER UPDATE ON artifact_embeddings
  REFERENCING OLD TABLE AS before NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION wsi_announce_artifact_vectors();
CREATE OR REPLACE TRIGGER wsi_artifact_vectors_deleted AFTER DELETE ON artifact_embeddings
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION wsi_announce_artifact_vectors();
CREATE OR REPLACE TRIGGER wsi_artifact_vectors_truncated AFTER TRUNCATE ON artifact_embeddings
  FOR EACH STATEMENT EXECUTE FUNCTION wsi_announce_artifact_vectors();`;

/**
 * One workspace's vectors of one model, as read and patched since. Rows `0` up to `count` are in
 * use, the rest room for patches. A row no longer stored (its artifact's rows were read again) is
 * left in place, its artifact DEAD and its norm 0, until the copy is compacted. The rows of
 * artifact `artifacts[a]` are `patchedRows.get(a)` if it was patched, else entries
 * `artifactStart[a]` up to `artifactStart[a + 1]` of `artifactRows`. Each row is held twice: as the
 * engine stores it (`halves`, the bits of each half float), which gives its exact distance, and as
 * 8-bit integers times a scale (`codes`, `scales`), which the kernel compares with every query to
 * find the few rows worth the exact comparison.
 */
interface HeldVectors {
  model: string;
  dimensions: number;
  /** The artifacts, each once; `ordinals` gives each one's place in it. */
  artifacts: string[];
  ordinals: Map<string, number>;
  artifactStart: Uint32Array;
  artifactRows: Uint32Array;
  patchedRows: Map<number, number[]>;
  count: number;
  dead: number;
  /** Each row's artifact, as its place in `artifacts`, or DEAD. */
  artifactOf: Uint32Array;
  halves: Uint16Array;
  codes: Int8Rows;
  /** Row i is about `scales[i]` × `codes.row(i)`, each number within half a scale. */
  scales: Float64Array;
  /** Each row's scale × the sum of its codes' magnitudes. */
  codeSums: Float64Array;
  /** Each row's norm, exact. */
  lengths: Float64Array;
  /** Artifacts announced changed whose rows are not read again yet, and the patch reading others. */
  changed: Set<string>;
  patching?: Promise<void>;
}

const DEAD = 0xffff_ffff;

/** The rows of artifact `a`. */
function rowsOf(held: HeldVectors, a: number): ArrayLike<number> {
  const patched = held.patchedRows.get(a);
  if (patched) return patched;
  return a + 1 < held.artifactStart.length ? held.artifactRows.subarray(held.artifactStart[a]!, held.artifactStart[a + 1]!) : [];
}

/** The rows of one read (READ_ROWS at most), decoded and coded, in the order of their ids. */
interface ReadRows {
  count: number;
  dimensions: number;
  lastId: string;
  artifacts: string[];
  halves: Uint16Array;
  codes: Int8Array;
  scales: Float64Array;
  codeSums: Float64Array;
  lengths: Float64Array;
}

/**
 * The most rows one statement reads. The engine and the decoding share this process's one thread
 * (1.4 s for 60,000 vectors read at once), and each statement of a request waits for the turn in
 * progress: a workspace's vectors are read in turns of this many rows, so that the statements of
 * requests are answered between turns. The first read of 60,000 vectors under searches at one
 * connection, searches sent one after another from the service's start: 3 s, and 98 searches
 * answered in the first 7 s, the searches during the read 0.4-0.8 s each; with a wait as long as
 * each turn after it, 7 s and 42 searches, 0.10-0.26 s each. The sooner the copy is held, the
 * sooner every search takes its 30-50 ms.
 */
const READ_ROWS = 1_000;

/** Half-float bits to their value (exact: every half is a float). */
const HALF = (() => {
  const table = new Float32Array(65_536);
  for (let bits = 0; bits < 65_536; bits++) {
    const sign = bits & 0x8000 ? -1 : 1;
    const exponent = (bits >> 10) & 0x1f;
    const fraction = bits & 0x3ff;
    table[bits] =
      exponent === 0 ? sign * fraction * 2 ** -24 : exponent === 31 ? (fraction ? NaN : sign * Infinity) : sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
  }
  return table;
})();

/** A string as an SQL literal (standard_conforming_strings: only quotes are special); COPY takes no parameters. */
const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;

/**
 * The rows in the output of `COPY (SELECT id, artifact_id, embedding …) TO … (FORMAT binary)`: a
 * header (11-byte signature, flags, extension), then each row as a field count and each field as
 * its length and bytes; the embedding as pgvector sends a halfvec (its dimensions, a reserved
 * int16, then each half), all big-endian. Each vector is coded as 8-bit integers times the scale
 * that maps its largest magnitude to 127.
 */
function readRows(copy: Uint8Array): ReadRows {
  const view = new DataView(copy.buffer, copy.byteOffset, copy.byteLength);
  const text = new TextDecoder();
  let at = 11 + 4;
  at += 4 + view.getUint32(at);
  const vectorAt: number[] = [];
  const artifacts: string[] = [];
  let lastId = "";
  for (;;) {
    const fields = view.getInt16(at);
    at += 2;
    if (fields === -1) break;
    const idLength = view.getInt32(at);
    lastId = text.decode(copy.subarray(at + 4, at + 4 + idLength));
    at += 4 + idLength;
    const artifactLength = view.getInt32(at);
    artifacts.push(text.decode(copy.subarray(at + 4, at + 4 + artifactLength)));
    at += 4 + artifactLength;
    vectorAt.push(at + 4);
    at += 4 + view.getInt32(at);
  }
  const count = vectorAt.length;
  const dimensions = count > 0 ? view.getUint16(vectorAt[0]!) : 0;
  const halves = new Uint16Array(count * dimensions);
  const codes = new Int8Array(count * dimensions);
  const scales = new Float64Array(count);
  const codeSums = new Float64Array(count);
  const lengths = new Float64Array(count);
  for (let row = 0; row < count; row++) {
    const from = vectorAt[row]! + 4;
    const to = row * dimensions;
    let norm = 0;
    let largest = 0;
    for (let d = 0; d < dimensions; d++) {
      const bits = view.getUint16(from + 2 * d);
      halves[to + d] = bits;
      const value = HALF[bits]!;
      norm += value * value;
      largest = Math.max(largest, Math.abs(value));
    }
    lengths[row] = Math.sqrt(norm);
    const scale = largest / 127;
    let sum = 0;
    if (scale > 0) {
      for (let d = 0; d < dimensions; d++) {
        const code = Math.round(HALF[halves[to + d]!]! / scale);
        codes[to + d] = code;
        sum += Math.abs(code);
      }
    }
    scales[row] = scale;
    codeSums[row] = scale * sum;
  }
  return { count, dimensions, lastId, artifacts, halves, codes, scales, codeSums, lengths };
}

/** One copy of the rows of all reads, in order, and each artifact's rows, with room for `spare` more rows. */
function heldFrom(model: string, reads: ReadRows[], spare: number, changed = new Set<string>()): HeldVectors {
  const count = reads.reduce((sum, read) => sum + read.count, 0);
  const dimensions = reads.find((read) => read.count > 0)?.dimensions ?? 0;
  // No dimensions, no room: a workspace without vectors holds an empty copy, and its first patch makes a new one.
  const capacity = dimensions > 0 ? count + spare : 0;
  const halves = new Uint16Array(capacity * dimensions);
  const codes = new Int8Rows(capacity, dimensions);
  const scales = new Float64Array(capacity);
  const codeSums = new Float64Array(capacity);
  const lengths = new Float64Array(capacity);
  const artifactOf = new Uint32Array(capacity).fill(DEAD);
  const artifacts: string[] = [];
  const ordinals = new Map<string, number>();
  let row = 0;
  for (const read of reads) {
    halves.set(read.halves, row * dimensions);
    scales.set(read.scales, row);
    codeSums.set(read.codeSums, row);
    lengths.set(read.lengths, row);
    for (let i = 0; i < read.count; i++, row++) {
      codes.row(row).set(read.codes.subarray(i * dimensions, (i + 1) * dimensions));
      let ordinal = ordinals.get(read.artifacts[i]!);
      if (ordinal === undefined) {
        ordinal = artifacts.push(read.artifacts[i]!) - 1;
        ordinals.set(read.artifacts[i]!, ordinal);
      }
      artifactOf[row] = ordinal;
    }
  }
  // Each artifact's rows, by counting.
  const artifactStart = new Uint32Array(artifacts.length + 1);
  for (let i = 0; i < count; i++) artifactStart[artifactOf[i]! + 1]!++;
  for (let a = 0; a < artifacts.length; a++) artifactStart[a + 1]! += artifactStart[a]!;
  const next = artifactStart.slice(0, artifacts.length);
  const artifactRows = new Uint32Array(count);
  for (let i = 0; i < count; i++) artifactRows[next[artifactOf[i]!]!++] = i;
  return {
    model,
    dimensions,
    artifacts,
    ordinals,
    artifactStart,
    artifactRows,
    patchedRows: new Map(),
    count,
    dead: 0,
    artifactOf,
    halves,
    codes,
    scales,
    codeSums,
    lengths,
    changed,
  };
}

/** Room for the patches of a copy of `count` rows before it must be compacted: about 6%. */
const spareFor = (count: number) => 256 + (count >> 4);

/** The rows of `held` in use, less those of the artifacts `except`, as one read. */
function liveRows(held: HeldVectors, except: ReadonlySet<string>): ReadRows {
  const { dimensions } = held;
  const rows: number[] = [];
  for (let row = 0; row < held.count; row++) {
    const a = held.artifactOf[row]!;
    if (a !== DEAD && !except.has(held.artifacts[a]!)) rows.push(row);
  }
  const read: ReadRows = {
    count: rows.length,
    dimensions,
    lastId: "",
    artifacts: rows.map((row) => held.artifacts[held.artifactOf[row]!]!),
    halves: new Uint16Array(rows.length * dimensions),
    codes: new Int8Array(rows.length * dimensions),
    scales: new Float64Array(rows.length),
    codeSums: new Float64Array(rows.length),
    lengths: new Float64Array(rows.length),
  };
  rows.forEach((row, i) => {
    read.halves.set(held.halves.subarray(row * dimensions, (row + 1) * dimensions), i * dimensions);
    read.codes.set(held.codes.row(row), i * dimensions);
    read.scales[i] = held.scales[row]!;
    read.codeSums[i] = held.codeSums[row]!;
    read.lengths[i] = held.lengths[row]!;
  });
  return read;
}

/**
 * `held` with the rows of `artifacts` as `read` gives them (all they have now): in place while
 * there is room, their former rows left dead; else, or once a quarter of the rows are dead, as a
 * new compact copy.
 */
function patched(held: HeldVectors, artifacts: readonly string[], read: ReadRows): HeldVectors {
  const fits = read.count === 0 || (read.dimensions === held.dimensions && held.count + read.count <= held.lengths.length);
  if (!fits) {
    const live = liveRows(held, new Set(artifacts));
    return heldFrom(held.model, [live, read], spareFor(live.count + read.count), held.changed);
  }
  const { dimensions } = held;
  for (const id of artifacts) {
    const a = held.ordinals.get(id);
    if (a === undefined) continue;
    const rows = rowsOf(held, a);
    for (let k = 0; k < rows.length; k++) {
      const row = rows[k]!;
      held.artifactOf[row] = DEAD;
      held.lengths[row] = 0;
      held.scales[row] = 0;
      held.codeSums[row] = 0;
      held.dead++;
    }
    held.patchedRows.set(a, []);
  }
  for (let i = 0; i < read.count; i++) {
    const row = held.count++;
    const id = read.artifacts[i]!;
    let a = held.ordinals.get(id);
    if (a === undefined) {
      a = held.artifacts.push(id) - 1;
      held.ordinals.set(id, a);
    }
    if (!held.patchedRows.has(a)) held.patchedRows.set(a, []);
    held.patchedRows.get(a)!.push(row);
    held.artifactOf[row] = a;
    held.halves.set(read.halves.subarray(i * dimensions, (i + 1) * dimensions), row * dimensions);
    held.codes.row(row).set(read.codes.subarray(i * dimensions, (i + 1) * dimensions));
    held.scales[row] = read.scales[i]!;
    held.codeSums[row] = read.codeSums[i]!;
    held.lengths[row] = read.lengths[i]!;
  }
  if (held.dead * 4 > held.count) {
    const live = liveRows(held, new Set());
    return heldFrom(held.model, [live], spareFor(live.count), held.changed);
  }
  return held;
}

/**
 * The k-th greatest of `values` (the least, when there are fewer), kept in a heap of the k
 * greatest seen: a sort of 10,000 doubles took 1 ms, this 0.1.
 */
function kthGreatest(values: Float64Array, k: number): number {
  if (values.length === 0 || k < 1) return -Infinity;
  const size = Math.min(k, values.length);
  // heap[0] is the least of the greatest `size` seen.
  const heap = new Float64Array(size).fill(-Infinity);
  const sift = (value: number) => {
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= size) break;
      const child = left + 1 < size && heap[left + 1]! < heap[left]! ? left + 1 : left;
      if (heap[child]! >= value) break;
      heap[at] = heap[child]!;
      at = child;
    }
    heap[at] = value;
  };
  for (let i = 0; i < values.length; i++) if (values[i]! > heap[0]!) sift(values[i]!);
  return heap[0]!;
}

/**
 * The `limit` artifacts nearest to `query` by cosine distance, each by its nearest vector, ordered
 * by distance then id: the exact scan's statement's answer (artifact-search.repository.ts,
 * nearestQuery); then the distance of each artifact of `also` that is not among them and has a
 * vector (the search's vector statement then need not compare those artifacts' vectors again).
 *
 * The kernel compares the query, as 16-bit integers times a scale, with every row's 8-bit codes.
 * Each number of either is within half its scale of the true one, which bounds how far each
 * row's dot product can be from the one computed (`slack`), so each artifact's distance lies
 * between two bounds. An artifact whose least possible distance exceeds the limit-th least
 * greatest one cannot be among the nearest; only the others are compared exactly, from the
 * halves as stored. The answer is therefore the exact scan's, not an approximation of it: the
 * dot products of that comparison are summed in doubles, pgvector's in 32-bit floats, so a
 * distance may differ from the statement's in its seventh digit
 * (tests/search/artifact-vectors-in-process.test.ts).
 */
export function nearestHeld(held: HeldVectors, query: number[], limit: number, also: readonly string[] = []): Array<{ id: string; distance: number }> {
  const { dimensions, lengths, artifactOf, halves, scales, codeSums } = held;
  const artifactCount = held.artifacts.length;
  if (held.count === held.dead) return [];
  // The statement compares the query as the engine reads it: 32-bit floats.
  const q = Float32Array.from(query);
  let queryNorm = 0;
  let querySum = 0;
  let queryLargest = 0;
  for (let d = 0; d < dimensions; d++) {
    queryNorm += q[d]! * q[d]!;
    querySum += Math.abs(q[d]!);
    queryLargest = Math.max(queryLargest, Math.abs(q[d]!));
  }
  const queryScale = queryLargest / INT8_ROWS_QUERY_MAX;
  const queryCodes = new Int16Array(dimensions);
  if (queryScale > 0) for (let d = 0; d < dimensions; d++) queryCodes[d] = Math.round(q[d]! / queryScale);
  const dots = held.codes.dots(queryCodes, held.count);

  /** The cosine distance for a dot product and the product of the two norms; a zero vector's is NaN to pgvector, which sorts after every number. */
  const distanceOf = (dot: number, norms: number) => {
    const similarity = Math.min(1, Math.max(-1, dot / norms));
    return Number.isNaN(similarity) ? Infinity : 1 - similarity;
  };
  // Each artifact's greatest possible and least certain similarity, by its nearest vector: in
  // similarities, which need no clamping to compare (a zero vector has none; pgvector's distance
  // to it is NaN, which sorts after every number).
  const queryLength = Math.sqrt(queryNorm);
  const most = new Float64Array(artifactCount).fill(-Infinity);
  const leastCertain = new Float64Array(artifactCount).fill(-Infinity);
  for (let row = 0; row < held.count; row++) {
    // A dead row's norm is 0, as a zero vector's: neither is ever among the nearest.
    const both = queryLength * lengths[row]!;
    if (!(both > 0)) continue;
    const dot = scales[row]! * queryScale * dots[row]!;
    // |q·x − dot| ≤ Σ|q|·|x − s·c| + Σ s·|c|·|q − t·k|, each difference at most half its scale; and a hair for rounding.
    const slack = 0.5 * scales[row]! * querySum + 0.5 * queryScale * codeSums[row]! + 1e-9 * both;
    const a = artifactOf[row]!;
    const high = (dot + slack) / both;
    const low = (dot - slack) / both;
    if (high > most[a]!) most[a] = high;
    if (low > leastCertain[a]!) leastCertain[a] = low;
  }

  const exact = new Float64Array(artifactCount).fill(NaN);
  /** Artifact `a`'s distance, by its nearest vector as stored. */
  const exactDistance = (a: number) => {
    if (!Number.isNaN(exact[a]!)) return exact[a]!;
    let best = Infinity;
    const rows = rowsOf(held, a);
    for (let k = 0; k < rows.length; k++) {
      const row = rows[k]!;
      let dot = 0;
      const at = row * dimensions;
      for (let d = 0; d < dimensions; d++) dot += HALF[halves[at + d]!]! * q[d]!;
      best = Math.min(best, distanceOf(dot, queryLength * lengths[row]!));
    }
    return (exact[a] = best);
  };

  // The limit-th greatest certain similarity: an artifact that cannot reach it is not among the nearest.
  const bound = kthGreatest(leastCertain, limit);
  const candidates: number[] = [];
  for (let a = 0; a < artifactCount; a++) if (most[a]! >= bound && most[a]! > -Infinity && exactDistance(a) < Infinity) candidates.push(a);
  candidates.sort((a, b) => exact[a]! - exact[b]! || (held.artifacts[a]! < held.artifacts[b]! ? -1 : 1));
  const nearest = candidates.slice(0, limit);
  const taken = new Set(nearest);
  for (const id of also) {
    const artifact = held.ordinals.get(id);
    if (artifact !== undefined && !taken.has(artifact) && exactDistance(artifact) < Infinity) {
      taken.add(artifact);
      nearest.push(artifact);
    }
  }
  return nearest.map((artifact) => ({ id: held.artifacts[artifact]!, distance: exact[artifact]! }));
}

export function createArtifactVectorsInProcess(
  executor: SqlExecutor,
  engine: InProcessEngine,
  {
    workspaceMaxVectors = IN_PROCESS_WORKSPACE_MAX_VECTORS,
    maxVectors = IN_PROCESS_MAX_VECTORS,
    maxWorkspaces = IN_PROCESS_MAX_WORKSPACES,
    reloadIntervalMs = IN_PROCESS_RELOAD_INTERVAL_MS,
    tooLargeRecheckMs = IN_PROCESS_TOO_LARGE_RECHECK_MS,
    now = () => Date.now(),
  } = {},
) {
  /** Held copies by workspace, least recently searched first (a Map keeps insertion order). */
  const held = new Map<string, HeldVectors>();
  /** Changes to whole workspaces announced per workspace, and to all: a read that saw fewer is not kept. */
  const wholeChanges = new Map<string, number>();
  let changesToAll = 0;
  /** The artifacts announced changed during each read in progress: its copy reads them again. */
  const reading = new Map<string, Set<string>>();
  /** When each workspace may be read again. */
  const nextRead = new Map<string, number>();
  /** Workspaces with more vectors than are held for one, and when that was found. */
  const tooLarge = new Map<string, number>();

  const wholeChangeCount = (workspaceId: string) => (wholeChanges.get(workspaceId) ?? 0) + changesToAll;

  function announced(payload: string) {
    if (payload === "") {
      changesToAll++;
      held.clear();
      tooLarge.clear();
      return;
    }
    const space = payload.indexOf(" ");
    const workspaceId = space < 0 ? payload : payload.slice(0, space);
    if (space < 0) {
      wholeChanges.set(workspaceId, (wholeChanges.get(workspaceId) ?? 0) + 1);
      held.delete(workspaceId);
      return;
    }
    const artifact = payload.slice(space + 1);
    reading.get(workspaceId)?.add(artifact);
    const copy = held.get(workspaceId);
    if (!copy) return;
    copy.changed.add(artifact);
    if (copy.changed.size > PATCH_BACKLOG_MAX) held.delete(workspaceId);
    else if (!copy.patching) setImmediate(() => void patch(workspaceId, copy));
  }

  const started = (async () => {
    await engine.listen(CHANNEL, announced);
    await executor.exec(ANNOUNCE_CHANGES);
  })();
  let listening = false;
  started.then(
    () => {
      listening = true;
    },
    () => undefined,
  );

  /** Lets the copies searched least recently go until `vectors` fits beside the others. */
  function makeRoom(vectors: HeldVectors) {
    const others = () => [...held.values()].filter((copy) => copy !== vectors);
    const total = () => others().reduce((sum, copy) => sum + copy.lengths.length, vectors.lengths.length);
    while (others().length > 0 && (total() > maxVectors || others().length >= maxWorkspaces)) {
      const [first] = [...held.entries()].find(([, copy]) => copy !== vectors)!;
      held.delete(first);
    }
  }

  const vectorRows = (workspaceId: string, model: string) =>
    `FROM artifact_embeddings WHERE workspace_id = ${literal(workspaceId)} AND searchable AND model = ${literal(model)} AND embedding IS NOT NULL`;

  async function read(workspaceId: string, model: string): Promise<void> {
    const before = wholeChangeCount(workspaceId);
    const changedMeanwhile = new Set<string>();
    reading.set(workspaceId, changedMeanwhile);
    const began = now();
    const reads: ReadRows[] = [];
    let rows = 0;
    try {
      for (let after = ""; ; ) {
        const copy = await engine.copyOut(
          `COPY (SELECT id, artifact_id, embedding ${vectorRows(workspaceId, model)} AND id > ${literal(after)}
                 ORDER BY id LIMIT ${READ_ROWS})
           TO '/dev/blob' WITH (FORMAT binary)`,
        );
        // A change to the whole workspace since the read began may or may not be in the rows: the copy is not kept.
        if (wholeChangeCount(workspaceId) !== before) return;
        const chunk = readRows(copy);
        reads.push(chunk);
        rows += chunk.count;
        if (rows > workspaceMaxVectors) {
          tooLarge.set(workspaceId, now());
          return;
        }
        if (chunk.count < READ_ROWS) break;
        after = chunk.lastId;
        // Requests already waiting for the engine go first.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      reading.delete(workspaceId);
      nextRead.set(workspaceId, now() + Math.max(reloadIntervalMs, RELOAD_SHARE * (now() - began)));
    }
    if (wholeChangeCount(workspaceId) !== before) return;
    // The artifacts changed during the read, which it may have read before or after their change, are read again by a patch.
    const vectors = heldFrom(model, reads, spareFor(rows), changedMeanwhile);
    tooLarge.delete(workspaceId);
    held.delete(workspaceId);
    makeRoom(vectors);
    held.set(workspaceId, vectors);
    if (vectors.changed.size > 0) void patch(workspaceId, vectors);
  }

  /**
   * Reads again the rows of the artifacts of `copy` announced changed (PATCH_ARTIFACTS at a time,
   * until none are left) and puts them in, unless the copy was dropped meanwhile; one patch at a
   * time per copy, which every caller shares. A failed read drops the copy.
   */
  function patch(workspaceId: string, copy: HeldVectors): Promise<void> {
    if (copy.patching) return copy.patching;
    if (copy.changed.size === 0) return Promise.resolve();
    copy.patching = (async () => {
      let current = copy;
      try {
        while (current.changed.size > 0 && held.get(workspaceId) === current) {
          const artifacts = [...current.changed].slice(0, PATCH_ARTIFACTS);
          for (const artifact of artifacts) current.changed.delete(artifact);
          const rows = readRows(
            await engine.copyOut(
              `COPY (SELECT id, artifact_id, embedding ${vectorRows(workspaceId, current.model)}
                       AND artifact_id IN (${artifacts.map(literal).join(", ")}) ORDER BY id)
               TO '/dev/blob' WITH (FORMAT binary)`,
            ),
          );
          if (held.get(workspaceId) !== current) return;
          if (rows.count > 0 && current.count > current.dead && rows.dimensions !== current.dimensions) throw new Error("vectors of another length");
          const next = patched(current, artifacts, rows);
          if (next.count - next.dead > workspaceMaxVectors) {
            held.delete(workspaceId);
            tooLarge.set(workspaceId, now());
            return;
          }
          if (next !== current) {
            // The same place in the order of searches, and this patch its patch; a larger copy may need the room of others.
            held.set(workspaceId, next);
            next.patching = copy.patching;
            current = next;
            makeRoom(next);
          }
        }
      } catch {
        if (held.get(workspaceId) === current) held.delete(workspaceId);
      } finally {
        copy.patching = undefined;
        current.patching = undefined;
      }
    })();
    return copy.patching;
  }

  /** The copy of a workspace's vectors with every change announced so far in it, or undefined if it is not held. */
  async function upToDate(workspaceId: string): Promise<HeldVectors | undefined> {
    // Each round's patch reads what was announced before it began: a few rounds catch up with a writer.
    for (let round = 0; round < 4; round++) {
      const copy = held.get(workspaceId);
      if (!copy || (copy.changed.size === 0 && !copy.patching)) return copy;
      await patch(workspaceId, copy);
    }
    const copy = held.get(workspaceId);
    return copy && copy.changed.size === 0 && !copy.patching ? copy : undefined;
  }

  return {
    /** Resolves once changes are announced (the trigger made and listened to), or rejects with why not; for tests. */
    started,

    /**
     * The nearest artifacts of `workspaceId` to `query` (rows as the exact scan's statement
     * answers them), and after them the artifacts of `also` not among them (nearestHeld), once
     * every change announced so far is in the copy; or undefined when the workspace's vectors are
     * not held, or not of the query's model: then a copy is read in the background (at most one at
     * a time per workspace, and not more often than IN_PROCESS_RELOAD_INTERVAL_MS says), and the
     * caller runs its statement.
     */
    async nearest(workspaceId: string, query: QueryVector, limit: number, also: readonly string[] = []): Promise<Array<{ id: string; distance: number }> | undefined> {
      if (!listening) return undefined;
      const copy = held.get(workspaceId);
      // A workspace without vectors holds an empty copy, of no dimensions.
      if (copy && copy.model === query.model && (copy.dimensions === query.vector.length || copy.count === copy.dead)) {
        const current = await upToDate(workspaceId);
        if (current && current.model === query.model && (current.dimensions === query.vector.length || current.count === current.dead)) {
          // Most recently searched last: the first is the one dropped for room.
          held.delete(workspaceId);
          held.set(workspaceId, current);
          return nearestHeld(current, query.vector, limit, also);
        }
        if (current) return undefined;
      }
      const found = tooLarge.get(workspaceId);
      const tooLargeNow = found !== undefined && now() - found < tooLargeRecheckMs;
      if (!tooLargeNow && !reading.has(workspaceId) && now() >= (nextRead.get(workspaceId) ?? 0)) {
        nextRead.set(workspaceId, now() + reloadIntervalMs);
        // A failed read leaves the statement to answer; the next search after the interval tries again.
        read(workspaceId, query.model).catch(() => undefined);
      }
      return undefined;
    },

    /** Whether a workspace's vectors are held now (for tests). */
    holds: (workspaceId: string) => held.has(workspaceId),

    /** Reads a workspace's vectors of `model` now unless they are held, and every change announced since (for tests and the bench). */
    async hold(workspaceId: string, model: string): Promise<boolean> {
      await started;
      if (held.get(workspaceId)?.model !== model) await read(workspaceId, model);
      return (await upToDate(workspaceId)) !== undefined;
    },
  };
}

export type ArtifactVectorsInProcess = ReturnType<typeof createArtifactVectorsInProcess>;
