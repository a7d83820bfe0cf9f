import { periodicPass } from "../lib/periodic-pass";
import type { Logger } from "../lib/logger";
import type { Database } from "../db/database";
import type { VectorIndexRepository, VectorTable } from "../repositories/vector-index.repository";

/**
 * Past this many searchable vectors on a table (of validated artifacts, active memories, a
 * workspace's patterns or learnings), a workspace gets an index of its own; up to it the exact
 * scan answers. The index costs about the same at any size (a search reads MIN_PROBES lists of
 * VECTORS_PER_LIST vectors), the exact scan grows with the workspace: the cut-over is where they
 * meet, on each engine (docs/search.md, "At scale"). On PostgreSQL the index's 6 ms beat the exact
 * scan from about 10,000 vectors (12.6 against 6.1 ms at 15,000, `npm run bench:scale`). On the
 * embedded engine each distance costs more inside the index than in the exact scan (which widens
 * the half floats first, src/db/vector-distance.ts): at 10,000 vectors the index was the slower
 * (21.7 against 17.6 ms), at 15,000 the faster (21.2 against 25.1 ms; `npm run bench`). Counted in
 * vectors, not documents: an artifact has up to six.
 */
export const OWN_INDEX_MIN_VECTORS: Record<Database["kind"], number> = { postgres: 10_000, embedded: 15_000 };

export interface VectorIndexMaintenanceOptions {
  vectorIndexes: VectorIndexRepository;
  logger: Logger;
  /** PostgreSQL builds indexes while writes go on; the embedded engine builds them in place. */
  engine: Database["kind"];
  /** OWN_INDEX_MIN_VECTORS of the engine unless given. */
  minVectors?: number;
  intervalMs?: number;
}

export interface VectorIndexMaintenance {
  start(): void;
  /** Stops after the index being built, if any. */
  stop(): Promise<void>;
  /** One pass: builds every index that is due; returns what it built. */
  runOnce(): Promise<Array<{ workspaceId: string; table: VectorTable; documents: number }>>;
}

/**
 * Gives each workspace that grew past OWN_INDEX_MIN_VECTORS (of the engine) its own index, and a new one each
 * time it has doubled since (REBUILD_GROWTH), off the request path (the worker, or the web
 * process that indexes in-process). Until the index exists, search scans the workspace exactly:
 * slower, never wrong.
 */
export function createVectorIndexMaintenance({
  vectorIndexes,
  logger,
  engine,
  minVectors = OWN_INDEX_MIN_VECTORS[engine],
  intervalMs = 60_000,
}: VectorIndexMaintenanceOptions): VectorIndexMaintenance {
  const concurrently = engine === "postgres";
  async function runPass(shouldStop: () => boolean) {
    const built: Array<{ workspaceId: string; table: VectorTable; documents: number }> = [];
    for (const due of await vectorIndexes.due(minVectors)) {
      if (shouldStop()) break;
      const started = Date.now();
      const index = await vectorIndexes.create(due.workspaceId, due.table, { concurrently, documents: due.documents });
      logger.info({ workspaceId: due.workspaceId, table: due.table, index, ms: Date.now() - started }, "built a workspace's own vector index");
      built.push(due);
    }
    return built;
  }

  return periodicPass({ pass: runPass, intervalMs, logger, name: "vector index maintenance" });
}
