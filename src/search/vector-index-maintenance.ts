import { periodicPass } from "../jobs/periodic-pass";
import type { Logger } from "../lib/logger";
import type { VectorIndexRepository, VectorTable } from "../repositories/vector-index.repository";

/**
 * Past this many searchable vectors on a table (of validated artifacts, active memories, a
 * workspace's patterns or learnings), a workspace gets an index of its own; up to it the exact
 * scan answers. Chosen from `npm run bench:scale` (docs/search.md, "At scale"): the exact scan of
 * 10,000 vectors takes about what the index does (5.7 ms against 4.6 ms), and the number of
 * partial indexes, which every write to the table and every plan of it pays for, stays small.
 * Counted in vectors, not documents: an artifact has up to six.
 */
export const OWN_INDEX_MIN_VECTORS = 10_000;

export interface VectorIndexMaintenanceOptions {
  vectorIndexes: VectorIndexRepository;
  logger: Logger;
  /** Whether the database builds indexes while writes go on (PostgreSQL); the embedded one builds them in place. */
  concurrently: boolean;
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
 * Gives each workspace that grew past OWN_INDEX_MIN_VECTORS its own index, and a new one each
 * time it has doubled since (REBUILD_GROWTH), off the request path (the worker, or the web
 * process that indexes in-process). Until the index exists, search scans the workspace exactly:
 * slower, never wrong.
 */
export function createVectorIndexMaintenance({
  vectorIndexes,
  logger,
  concurrently,
  minVectors = OWN_INDEX_MIN_VECTORS,
  intervalMs = 60_000,
}: VectorIndexMaintenanceOptions): VectorIndexMaintenance {
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
