import type { InProcessEngine } from "../db/embedded-database";
import type { SqlExecutor } from "../db/migrations";
import { FloatRows } from "../lib/float-rows";
import type { QueryVector } from "../search/hybrid-query";

/**
 * The artifact vectors of the workspaces searched recently, held in this process as 32-bit floats,
 * for the embedded engine: there an exact scan of a workspace's vectors runs on the engine's one
 * WebAssembly thread, reading each row and widening its half floats (19-22 ms for 6,000 vectors,
 * most of a search's vector statement), where a SIMD kernel over the same floats in memory
 * (src/lib/float-rows.ts) takes under a millisecond (docs/performance.md, "What each change
 * bought"). PostgreSQL compares half floats natively and in parallel with other requests, and
 * does not use this.
 *
 * The held vectors are always those the database holds: triggers announce each change to a
 * workspace's searchable vectors (a NOTIFY, delivered in this process when the writing
 * transaction commits, before its caller resumes), which drops that workspace's copy; the next
 * search reads the vectors by its statement as before while a new copy is read. The embedded
 * engine has one owner, this process (embedded-database.ts), so no write escapes it.
 */

/** The most vectors held for one workspace: past the embedded engine's own-index threshold a workspace searches its index. */
export const IN_PROCESS_WORKSPACE_MAX_VECTORS = 15_000;

/** The most vectors held for all workspaces together (4 bytes a dimension: 512 dimensions, 2 KB a vector, 64 MB). */
export const IN_PROCESS_MAX_VECTORS = 32_000;

/**
 * The most workspaces whose vectors are held at once. Each copy's floats live in a WebAssembly
 * memory of their own (src/lib/float-rows.ts), for which V8 reserves 8 GiB of address space (not of
 * memory): about 16,000 of them fill a 64-bit process's. Of the two bounds, IN_PROCESS_MAX_VECTORS
 * comes first unless the workspaces held average under 125 vectors.
 */
export const IN_PROCESS_MAX_WORKSPACES = 256;

/** A copy that went stale is read again at most this often, so that a workspace being imported is not read after every batch. */
export const IN_PROCESS_RELOAD_INTERVAL_MS = 2_000;

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

/** One workspace's vectors of one model: row i of `rows` is a vector of artifact `artifacts[artifactOf[i]]`. */
interface HeldVectors {
  model: string;
  dimensions: number;
  /** The artifacts, each once; `artifactOf` indexes into it, `ordinals` gives each one's place in it. */
  artifacts: string[];
  ordinals: Map<string, number>;
  artifactOf: Uint32Array;
  rows: FloatRows;
  /** Each row's squared norm. */
  norms: Float64Array;
}

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
 * The vectors of `model` in the output of `COPY (SELECT artifact_id, embedding …) TO … (FORMAT
 * binary)`: a header (11-byte signature, flags, extension), then each row as a field count and
 * each field as its length and bytes; the embedding as pgvector sends a halfvec (its dimensions, a
 * reserved int16, then each half), all big-endian. Null when the output holds more than `max` rows.
 */
function heldFrom(model: string, copy: Uint8Array, max: number): HeldVectors | null {
  const view = new DataView(copy.buffer, copy.byteOffset, copy.byteLength);
  const text = new TextDecoder();
  let at = 11 + 4;
  at += 4 + view.getUint32(at);
  const rows: Array<{ artifact: string; vector: number }> = [];
  for (;;) {
    const fields = view.getInt16(at);
    at += 2;
    if (fields === -1) break;
    const idLength = view.getInt32(at);
    const artifact = text.decode(copy.subarray(at + 4, at + 4 + idLength));
    at += 4 + idLength;
    const vectorLength = view.getInt32(at);
    rows.push({ artifact, vector: at + 4 });
    at += 4 + vectorLength;
    if (rows.length > max) return null;
  }
  const dimensions = rows.length > 0 ? view.getUint16(rows[0]!.vector) : 0;
  const matrix = new FloatRows(rows.length, dimensions);
  const norms = new Float64Array(rows.length);
  const artifactOf = new Uint32Array(rows.length);
  const artifacts: string[] = [];
  const ordinal = new Map<string, number>();
  rows.forEach((row, i) => {
    const target = matrix.row(i);
    let norm = 0;
    for (let d = 0; d < dimensions; d++) {
      const value = HALF[view.getUint16(row.vector + 4 + 2 * d)]!;
      target[d] = value;
      norm += value * value;
    }
    norms[i] = norm;
    let artifact = ordinal.get(row.artifact);
    if (artifact === undefined) {
      artifact = artifacts.push(row.artifact) - 1;
      ordinal.set(row.artifact, artifact);
    }
    artifactOf[i] = artifact;
  });
  return { model, dimensions, artifacts, ordinals: ordinal, artifactOf, rows: matrix, norms };
}

/**
 * The `limit` artifacts nearest to `query` by cosine distance, each by its nearest vector, ordered
 * by distance then id: the exact scan's statement's answer (artifact-search.repository.ts,
 * nearestQuery); then the distance of each artifact of `also` that is not among them and has a
 * vector (every distance is computed anyway; the search's vector statement then need not compare
 * those artifacts' vectors again). The dot products are summed in 32-bit floats, as pgvector's,
 * but in another order, so a distance may differ from the statement's in its seventh digit
 * (tests/search/artifact-vectors-in-process.test.ts).
 */
export function nearestHeld(held: HeldVectors, query: number[], limit: number, also: readonly string[] = []): Array<{ id: string; distance: number }> {
  const { dimensions, norms, artifactOf } = held;
  if (norms.length === 0) return [];
  // The statement compares the query as the engine reads it: 32-bit floats.
  const q = Float32Array.from(query);
  let queryNorm = 0;
  for (let d = 0; d < dimensions; d++) queryNorm += q[d]! * q[d]!;
  const dots = held.rows.dots(q);
  const best = new Float64Array(held.artifacts.length).fill(Infinity);
  for (let row = 0; row < norms.length; row++) {
    const dot = dots[row]!;
    const similarity = Math.min(1, Math.max(-1, dot / Math.sqrt(queryNorm * norms[row]!)));
    // A zero vector's distance is NaN to pgvector, which sorts after every number.
    const distance = Number.isNaN(similarity) ? Infinity : 1 - similarity;
    const artifact = artifactOf[row]!;
    if (distance < best[artifact]!) best[artifact] = distance;
  }
  // Only the artifacts within the limit-th least distance are ordered by the comparator: a typed
  // array's numeric sort finds that distance without calling one (the whole look-up 0.63 -> 0.43 ms
  // at 1,000 artifacts).
  const cutoff = best.slice().sort()[Math.min(limit, best.length) - 1] ?? Infinity;
  const order: number[] = [];
  for (let artifact = 0; artifact < best.length; artifact++) if (best[artifact]! <= cutoff && best[artifact]! < Infinity) order.push(artifact);
  order.sort((a, b) => best[a]! - best[b]! || (held.artifacts[a]! < held.artifacts[b]! ? -1 : 1));
  const nearest = order.slice(0, limit);
  const taken = new Set(nearest);
  for (const id of also) {
    const artifact = held.ordinals.get(id);
    if (artifact !== undefined && !taken.has(artifact) && best[artifact]! < Infinity) {
      taken.add(artifact);
      nearest.push(artifact);
    }
  }
  return nearest.map((artifact) => ({ id: held.artifacts[artifact]!, distance: best[artifact]! }));
}

export function createArtifactVectorsInProcess(
  executor: SqlExecutor,
  engine: InProcessEngine,
  {
    workspaceMaxVectors = IN_PROCESS_WORKSPACE_MAX_VECTORS,
    maxVectors = IN_PROCESS_MAX_VECTORS,
    maxWorkspaces = IN_PROCESS_MAX_WORKSPACES,
    reloadIntervalMs = IN_PROCESS_RELOAD_INTERVAL_MS,
    now = () => Date.now(),
  } = {},
) {
  /** Held copies by workspace, least recently searched first (a Map keeps insertion order). */
  const held = new Map<string, HeldVectors>();
  /** Changes announced per workspace, and for all ('' counts for every workspace): a read that saw fewer is stale. */
  const changes = new Map<string, number>();
  let changesToAll = 0;
  const reading = new Set<string>();
  const lastRead = new Map<string, number>();
  /** Workspaces with more vectors than are held for one, until they change. */
  const tooLarge = new Set<string>();

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
      tooLarge.delete(workspaceId);
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
    for (const copy of held.values()) total += copy.norms.length;
    return total;
  }

  async function read(workspaceId: string, model: string): Promise<void> {
    const before = changeCount(workspaceId);
    const copy = await engine.copyOut(
      `COPY (SELECT artifact_id, embedding FROM artifact_embeddings
             WHERE workspace_id = ${literal(workspaceId)} AND searchable AND model = ${literal(model)} AND embedding IS NOT NULL
             LIMIT ${workspaceMaxVectors + 1})
       TO '/dev/blob' WITH (FORMAT binary)`,
    );
    // A change announced while the rows were read may or may not be in them: the copy is not kept.
    if (changeCount(workspaceId) !== before) return;
    const vectors = heldFrom(model, copy, workspaceMaxVectors);
    if (!vectors) {
      tooLarge.add(workspaceId);
      return;
    }
    held.delete(workspaceId);
    while (held.size > 0 && (heldVectors() + vectors.norms.length > maxVectors || held.size >= maxWorkspaces)) held.delete(held.keys().next().value!);
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
     * than every `reloadIntervalMs`), and the caller runs its statement.
     */
    nearest(workspaceId: string, query: QueryVector, limit: number, also: readonly string[] = []): Array<{ id: string; distance: number }> | undefined {
      if (!listening) return undefined;
      const copy = held.get(workspaceId);
      // A workspace without vectors holds an empty copy, of no dimensions.
      if (copy && copy.model === query.model && (copy.dimensions === query.vector.length || copy.norms.length === 0)) {
        // Most recently searched last: the first is the one dropped for room.
        held.delete(workspaceId);
        held.set(workspaceId, copy);
        return nearestHeld(copy, query.vector, limit, also);
      }
      const last = lastRead.get(workspaceId);
      if (!tooLarge.has(workspaceId) && !reading.has(workspaceId) && (last === undefined || now() - last >= reloadIntervalMs)) {
        reading.add(workspaceId);
        lastRead.set(workspaceId, now());
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
