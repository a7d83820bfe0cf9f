import { createVectorIndexMaintenance } from "../../src/indexing/vector-index-maintenance";
import { createLogger } from "../../src/lib/logger";
import { createVectorIndexRepository } from "../../src/repositories/vector-index.repository";
import type { TestApp } from "./test-app";

/** One pass of the worker's index upkeep: an index of its own for every workspace past `minVectors` searchable vectors on a table. */
export function buildOwnIndexes(t: TestApp, minVectors: number) {
  return createVectorIndexMaintenance({
    vectorIndexes: createVectorIndexRepository(t.database.prisma),
    logger: createLogger("silent"),
    // As the worker builds them: on PostgreSQL a partitioned table refuses CONCURRENTLY.
    engine: t.database.kind,
    minVectors,
  }).runOnce();
}
