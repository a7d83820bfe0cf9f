import type { Database } from "../db/database";
import { createLogger } from "../lib/logger";
import { createVectorIndexRepository } from "../repositories/vector-index.repository";
import { createVectorIndexMaintenance, OWN_INDEX_MIN_VECTORS, type BuiltIndex } from "./vector-index-maintenance";

/**
 * Brings a database's search structures up to date with its rows at once (what the worker
 * otherwise does in the background): for seeding tools and the scale bench.
 */
export async function maintainSearchNow(database: Database, minVectors = OWN_INDEX_MIN_VECTORS[database.kind]): Promise<BuiltIndex[]> {
  return createVectorIndexMaintenance({
    vectorIndexes: createVectorIndexRepository(database.prisma, { buildSession: database.onOneConnection }),
    logger: createLogger("warn"),
    engine: database.kind,
    minVectors,
  }).runOnce();
}
