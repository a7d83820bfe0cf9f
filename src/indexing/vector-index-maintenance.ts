import { periodicPass } from "../lib/periodic-pass";
import type { Logger } from "../lib/logger";
import type { Database } from "../db/database";
import { ATTR_DB_COLLECTION_NAME, ATTR_ERROR_TYPE } from "../telemetry/conventions";
import { instruments } from "../telemetry/instruments";
import { IndexBuildDoesNotFit, type VectorIndexRepository, type VectorTable } from "../repositories/vector-index.repository";

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
  /** How soon after start the first pass runs (FIRST_PASS_AFTER_MS unless given). */
  firstPassAfterMs?: number;
}

/**
 * The first pass runs this soon after the process starts, not an interval later: indexes already
 * built survive a restart, but a workspace that became due meanwhile would otherwise be searched
 * exactly for a whole interval more (docs/performance.md, "Own vector indexes"). The few seconds
 * let the start-up's own statements go first.
 */
export const FIRST_PASS_AFTER_MS = 5_000;

export interface BuiltIndex {
  workspaceId: string;
  table: VectorTable;
  documents: number;
  vectors: number;
  lists: number;
  /** The maintenance_work_mem the build ran with, in kB. */
  memoryKb: number;
  ms: number;
}

export interface VectorIndexMaintenance {
  start(): void;
  /** Stops after the index being built, if any. */
  stop(): Promise<void>;
  /** One pass: builds every index that is due; returns what it built. */
  runOnce(): Promise<BuiltIndex[]>;
  /** Builds the indexes of one workspace that are due, and no other's (a workspace that just moved). */
  buildFor(workspaceId: string): Promise<BuiltIndex[]>;
}

/**
 * Gives each workspace that grew past OWN_INDEX_MIN_VECTORS (of the engine) its own index, and a new one each
 * time it has doubled since (REBUILD_GROWTH), off the request path (the worker, or the web
 * process that indexes in-process). Until the index exists, search scans the workspace exactly:
 * slower, never wrong. A build that fails is logged, counted and noted (the admin index state
 * shows it), and not tried again until the workspace or the memory allowed changes (`due`).
 */
export function createVectorIndexMaintenance({
  vectorIndexes,
  logger,
  engine,
  minVectors = OWN_INDEX_MIN_VECTORS[engine],
  intervalMs = 60_000,
  firstPassAfterMs = FIRST_PASS_AFTER_MS,
}: VectorIndexMaintenanceOptions): VectorIndexMaintenance {
  const concurrently = engine === "postgres";
  async function runPass(shouldStop: () => boolean, workspaceId?: string) {
    const built: BuiltIndex[] = [];
    for (const due of await vectorIndexes.due(minVectors, workspaceId)) {
      if (shouldStop()) break;
      const started = Date.now();
      try {
        const index = await vectorIndexes.create(due.workspaceId, due.table, { concurrently, documents: due.documents });
        const ms = Date.now() - started;
        logger.info(
          { workspaceId: due.workspaceId, table: due.table, index: index.name, vectors: index.vectors, lists: index.lists, memoryMb: Math.ceil(index.memoryKb / 1024), ms },
          "built a workspace's own vector index",
        );
        built.push({ ...due, vectors: index.vectors, lists: index.lists, memoryKb: index.memoryKb, ms });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        const fit = error instanceof IndexBuildDoesNotFit ? { neededMb: Math.ceil(error.neededKb / 1024), availableMb: Math.floor(error.availableKb / 1024) } : {};
        logger.warn(
          { workspaceId: due.workspaceId, table: due.table, vectors: due.vectors, ...fit, err: error },
          "could not build a workspace's own vector index; it is searched exactly and tried again once it or INDEX_BUILD_MEMORY_MB changes",
        );
        instruments().vectorIndexBuildFailures.add(1, { [ATTR_DB_COLLECTION_NAME]: due.table, [ATTR_ERROR_TYPE]: error instanceof IndexBuildDoesNotFit ? "does_not_fit" : "build_failed" });
        await vectorIndexes.refuse(due.workspaceId, due.table, { vectors: due.vectors, error: reason });
      }
    }
    return built;
  }

  return {
    ...periodicPass({ pass: (shouldStop) => runPass(shouldStop), intervalMs, firstAfterMs: firstPassAfterMs, logger, name: "vector index maintenance" }),
    buildFor: (workspaceId) => runPass(() => false, workspaceId),
  };
}
