import { periodicPass } from "../jobs/periodic-pass";
import type { Logger } from "../lib/logger";
import { MIN_PROBES, VECTORS_PER_LIST, type VectorIndexRepository, type VectorTable } from "../repositories/vector-index.repository";

/**
 * Past this many searchable vectors on a table (of validated artifacts, active memories, a
 * workspace's patterns or learnings), a workspace gets an index of its own; up to it the exact
 * scan answers. A search reads MIN_PROBES lists of the index: it pays once they are at most half
 * of them, i.e. from twice MIN_PROBES lists of VECTORS_PER_LIST (15,000 vectors). At 10,000 (40
 * lists, 30 read) the index was no faster than the exact scan on PostgreSQL and slower on the
 * embedded engine (21.7 against 17.6 ms; docs/search.md, "At scale"). Fewer partial indexes also
 * means less for every write to the table and every plan of it to pay for. Counted in vectors,
 * not documents: an artifact has up to six.
 */
export const OWN_INDEX_MIN_VECTORS = 2 * MIN_PROBES * VECTORS_PER_LIST;

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
