import type { Logger } from "../lib/logger";
import type { VectorIndexRepository, VectorTable } from "../repositories/vector-index.repository";

/**
 * Past this many searchable documents on a table (validated artifacts, active memories, a
 * workspace's patterns or learnings), a workspace gets an HNSW index of its own; below it the
 * exact scan answers. Chosen from `npm run bench:scale` (docs/search.md, "At scale"): the exact
 * scan of a workspace this size costs about what the index does, and the number of partial
 * indexes, which every write to the table and every plan of it pays for, stays small.
 */
export const OWN_INDEX_MIN_DOCUMENTS = 5_000;

export interface VectorIndexMaintenanceOptions {
  vectorIndexes: VectorIndexRepository;
  logger: Logger;
  /** Whether the database builds indexes while writes go on (PostgreSQL); the embedded one builds them in place. */
  concurrently: boolean;
  minDocuments?: number;
  intervalMs?: number;
}

export interface VectorIndexMaintenance {
  start(): void;
  /** Stops after the index being built, if any. */
  stop(): Promise<void>;
  /** One pass: builds every index that is due; returns what it built. */
  runOnce(): Promise<Array<{ workspaceId: string; table: VectorTable }>>;
}

/**
 * Gives each workspace that grew past OWN_INDEX_MIN_DOCUMENTS its own HNSW index, off the request
 * path (the worker, or the web process that indexes in-process). Until the index exists, search
 * scans the workspace exactly: slower, never wrong.
 */
export function createVectorIndexMaintenance({
  vectorIndexes,
  logger,
  concurrently,
  minDocuments = OWN_INDEX_MIN_DOCUMENTS,
  intervalMs = 60_000,
}: VectorIndexMaintenanceOptions): VectorIndexMaintenance {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = true;

  async function runPass(shouldStop: () => boolean) {
    const built: Array<{ workspaceId: string; table: VectorTable }> = [];
    for (const due of await vectorIndexes.due(minDocuments)) {
      if (shouldStop()) break;
      const started = Date.now();
      const index = await vectorIndexes.create(due.workspaceId, due.table, { concurrently });
      logger.info({ workspaceId: due.workspaceId, table: due.table, index, ms: Date.now() - started }, "built a workspace's own vector index");
      built.push(due);
    }
    return built;
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => {
      running = runPass(() => stopped)
        .catch((error: unknown) => logger.warn({ err: error }, "vector index maintenance failed; retrying next interval"))
        .finally(() => {
          running = undefined;
          schedule();
        });
    }, intervalMs);
    timer.unref();
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      schedule();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
    runOnce: () => runPass(() => false),
  };
}
