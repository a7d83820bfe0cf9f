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
 * workspace's searchable vectors (a NOTIFY, delivered in this process when the writing
 * transaction commits, before its caller resumes), which drops that workspace's copy; the next
 * search reads the vectors by its statement as before while a new copy is read. The embedded
 * engine has one owner, this process (embedded-database.ts), so no write escapes it.
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
 * A copy that went stale is read again at most this often, and no sooner than `RELOAD_SHARE`
 * times its last read took: a read holds the engine's one thread (1.6 s for 60,000 vectors), so a
 * workspace being imported is not read after every batch, and the reads of a large one take at
 * most a tenth of the engine.
 */
export const IN_PROCESS_RELOAD_INTERVAL_MS = 2_000;
const RELOAD_SHARE = 10;

/** A workspace found to have more vectors than are held for one is not read again for this long, however it changes. */
export const IN_PROCESS_TOO_LARGE_RECHECK_MS = 10 * 60_000;

const CHANNEL = "wsi_artifact_vectors";

/**
 * The triggers that announce changes: the workspaces of the rows with a vector a statement
 * inserted, updated (with one before or after) or deleted (PostgreSQL folds a transaction's
 * identical notifications into one). Rows without a vector are not searched, so a validation's
 * pending rows and the indexer's leases announce nothing. An insert is announced row by row behind a WHEN
 * that only the rare row with a vector passes: a statement trigger's transition table cost every
 * push 0.3 ms. Updates and deletes come in batches (the indexer's, a workspace's deletion) and are
 * announced per statement, from their transition tables (an update trigger with them cannot name
 * its columns). A TRUNCATE announces every workspace ('').
 */
const ANNOUNCE_CHANGES = `
CREATE OR REPLACE FUNCTION wsi_announce_artifact_vectors() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  workspace text;
BEGIN
  IF TG_LEVEL = 'ROW' THEN
    PERFORM pg_notify('${CHANNEL}', NEW.workspace_id);
  ELSIF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('${CHANNEL}', '');
  ELSIF TG_OP = 'UPDATE' THEN
    FOR workspace IN SELECT c.workspace_id FROM changed c WHERE c.embedding IS NOT NULL
                     UNION SELECT b.workspace_id FROM before b WHERE b.embedding IS NOT NULL LOOP
      PERFORM pg_notify('${CHANNEL}', workspace);
    END LOOP;
  ELSE
    FOR workspace IN SELECT DISTINCT c.workspace_id FROM changed c WHERE c.embedding IS NOT NULL LOOP
      PERFORM pg_notify('${CHANNEL}', workspace);
    END LOOP;
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
 * One workspace's vectors of one model. Entries `artifactStart[a]` up to `artifactStart[a + 1]`
 * of `artifactRows` are the rows of artifact `artifacts[a]`. Each row is held twice: as the engine
 * stores it (`halves`, the bits of each half float), which gives its exact distance, and as 8-bit
 * integers times a scale (`codes`, `scales`), which the kernel compares with every query to find
 * the few rows worth the exact comparison.
 */
interface HeldVectors {
  model: string;
  dimensions: number;
  /** The artifacts, each once; `ordinals` gives each one's place in it. */
  artifacts: string[];
  ordinals: Map<string, number>;
  artifactStart: Uint32Array;
  artifactRows: Uint32Array;
  /** Each row's artifact, as its place in `artifacts`. */
  artifactOf: Uint32Array;
  halves: Uint16Array;
  codes: Int8Rows;
  /** Row i is about `scales[i]` × `codes.row(i)`, each number within half a scale. */
  scales: Float64Array;
  /** Each row's scale × the sum of its codes' magnitudes. */
  codeSums: Float64Array;
  /** Each row's norm, exact. */
  lengths: Float64Array;
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
 * progress: a workspace's vectors are read in turns of this many rows (about 25 ms each), and
 * after each turn the read waits as long as the turn took, so that requests are answered between
 * turns and a read takes at most half of the engine (searches during the first read of 60,000
 * vectors: 0.55-0.78 s each in turns of 5,000 rows without the wait, 0.10-0.20 s in these).
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

/** One copy of the rows of all reads, in order, and each artifact's rows. */
function heldFrom(model: string, reads: ReadRows[]): HeldVectors {
  const count = reads.reduce((sum, read) => sum + read.count, 0);
  const dimensions = reads.find((read) => read.count > 0)?.dimensions ?? 0;
  const halves = new Uint16Array(count * dimensions);
  const codes = new Int8Rows(count, dimensions);
  const scales = new Float64Array(count);
  const codeSums = new Float64Array(count);
  const lengths = new Float64Array(count);
  const artifactOf = new Uint32Array(count);
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
  for (const artifact of artifactOf) artifactStart[artifact + 1]!++;
  for (let a = 0; a < artifacts.length; a++) artifactStart[a + 1]! += artifactStart[a]!;
  const next = artifactStart.slice(0, artifacts.length);
  const artifactRows = new Uint32Array(count);
  artifactOf.forEach((artifact, i) => (artifactRows[next[artifact]!++] = i));
  return { model, dimensions, artifacts, ordinals, artifactStart, artifactRows, artifactOf, halves, codes, scales, codeSums, lengths };
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
  const { dimensions, lengths, artifactStart, artifactRows, artifactOf, halves, scales, codeSums } = held;
  const artifactCount = held.artifacts.length;
  if (lengths.length === 0) return [];
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
  const dots = held.codes.dots(queryCodes);

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
  for (let row = 0; row < lengths.length; row++) {
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
    for (let k = artifactStart[a]!; k < artifactStart[a + 1]!; k++) {
      const row = artifactRows[k]!;
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
  /** Changes announced per workspace, and for all ('' counts for every workspace): a read that saw fewer is stale. */
  const changes = new Map<string, number>();
  let changesToAll = 0;
  const reading = new Set<string>();
  /** When each workspace may be read again. */
  const nextRead = new Map<string, number>();
  /** Workspaces with more vectors than are held for one, and when that was found. */
  const tooLarge = new Map<string, number>();

  const changeCount = (workspaceId: string) => (changes.get(workspaceId) ?? 0) + changesToAll;

  const started = (async () => {
    await engine.listen(CHANNEL, (workspaceId) => {
      if (workspaceId === "") {
        changesToAll++;
        held.clear();
        tooLarge.clear();
        return;
      }
      changes.set(workspaceId, (changes.get(workspaceId) ?? 0) + 1);
      held.delete(workspaceId);
    });
    await executor.exec(ANNOUNCE_CHANGES);
  })();
  let listening = false;
  started.then(
    () => {
      listening = true;
    },
    () => undefined,
  );

  function heldVectors(): number {
    let total = 0;
    for (const copy of held.values()) total += copy.lengths.length;
    return total;
  }

  async function read(workspaceId: string, model: string): Promise<void> {
    const before = changeCount(workspaceId);
    const began = now();
    const reads: ReadRows[] = [];
    let rows = 0;
    try {
      for (let after = ""; ; ) {
        const turn = performance.now();
        const copy = await engine.copyOut(
          `COPY (SELECT id, artifact_id, embedding FROM artifact_embeddings
                 WHERE workspace_id = ${literal(workspaceId)} AND id > ${literal(after)}
                   AND searchable AND model = ${literal(model)} AND embedding IS NOT NULL
                 ORDER BY id LIMIT ${READ_ROWS})
           TO '/dev/blob' WITH (FORMAT binary)`,
        );
        // A change announced since the first read began may or may not be in the rows: the copy is not kept.
        if (changeCount(workspaceId) !== before) return;
        const chunk = readRows(copy);
        reads.push(chunk);
        rows += chunk.count;
        if (rows > workspaceMaxVectors) {
          tooLarge.set(workspaceId, now());
          return;
        }
        if (chunk.count < READ_ROWS) break;
        after = chunk.lastId;
        await new Promise((resolve) => setTimeout(resolve, performance.now() - turn));
      }
    } finally {
      nextRead.set(workspaceId, now() + Math.max(reloadIntervalMs, RELOAD_SHARE * (now() - began)));
    }
    if (changeCount(workspaceId) !== before) return;
    const vectors = heldFrom(model, reads);
    tooLarge.delete(workspaceId);
    held.delete(workspaceId);
    while (held.size > 0 && (heldVectors() + vectors.lengths.length > maxVectors || held.size >= maxWorkspaces)) held.delete(held.keys().next().value!);
    held.set(workspaceId, vectors);
  }

  return {
    /** Resolves once changes are announced (the trigger made and listened to), or rejects with why not; for tests. */
    started,

    /**
     * The nearest artifacts of `workspaceId` to `query` (rows as the exact scan's statement
     * answers them), and after them the artifacts of `also` not among them (nearestHeld); or
     * undefined when the workspace's vectors are not held, or not of the query's model: then a
     * copy is read in the background (at most one at a time per workspace, and not more often
     * than IN_PROCESS_RELOAD_INTERVAL_MS says), and the caller runs its statement.
     */
    nearest(workspaceId: string, query: QueryVector, limit: number, also: readonly string[] = []): Array<{ id: string; distance: number }> | undefined {
      if (!listening) return undefined;
      const copy = held.get(workspaceId);
      // A workspace without vectors holds an empty copy, of no dimensions.
      if (copy && copy.model === query.model && (copy.dimensions === query.vector.length || copy.lengths.length === 0)) {
        // Most recently searched last: the first is the one dropped for room.
        held.delete(workspaceId);
        held.set(workspaceId, copy);
        return nearestHeld(copy, query.vector, limit, also);
      }
      const found = tooLarge.get(workspaceId);
      const tooLargeNow = found !== undefined && now() - found < tooLargeRecheckMs;
      if (!tooLargeNow && !reading.has(workspaceId) && now() >= (nextRead.get(workspaceId) ?? 0)) {
        reading.add(workspaceId);
        nextRead.set(workspaceId, now() + reloadIntervalMs);
        // A failed read leaves the statement to answer; the next search after the interval tries again.
        read(workspaceId, query.model)
          .catch(() => undefined)
          .finally(() => reading.delete(workspaceId));
      }
      return undefined;
    },

    /** Whether a workspace's vectors are held now (for tests). */
    holds: (workspaceId: string) => held.has(workspaceId),

    /** Reads a workspace's vectors of `model` now, unless they are held (for tests and the bench). */
    async hold(workspaceId: string, model: string): Promise<boolean> {
      await started;
      if (held.get(workspaceId)?.model !== model) await read(workspaceId, model);
      return held.has(workspaceId);
    },
  };
}

export type ArtifactVectorsInProcess = ReturnType<typeof createArtifactVectorsInProcess>;
