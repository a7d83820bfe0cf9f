import type { Config } from "../config";
import type { Logger } from "../lib/logger";
import { embeddedDatabase, postgresDatabase, type Database } from "./database";
import { assertDatabaseReady, explainConnectionFailure } from "./database-readiness";
import { openEmbeddedDatabase } from "./embedded-database";
import { applyMigrations } from "./migrations";

/**
 * The database the configuration names: the managed Postgres of DATABASE_URL (migrated by the
 * release phase, and refused here until it is), or the embedded engine under DATA_DIR, migrated
 * here before first use.
 */
export async function openDatabase(
  config: Pick<Config, "databaseUrl" | "dataDir" | "databasePoolSize"> & Partial<Pick<Config, "databaseConnectTimeoutMs" | "databaseStatementTimeoutMs">>,
  logger?: Logger,
): Promise<Database> {
  if (config.databaseUrl) {
    const database = postgresDatabase(config.databaseUrl, {
      poolSize: config.databasePoolSize,
      connectTimeoutMs: config.databaseConnectTimeoutMs,
      statementTimeoutMs: config.databaseStatementTimeoutMs,
      logger,
    });
    try {
      await assertDatabaseReady(database.executor);
    } catch (error) {
      await database.close();
      throw explainConnectionFailure(error, config.databaseUrl);
    }
    return database;
  }
  const embedded = await openEmbeddedDatabase(config.dataDir);
  try {
    await applyMigrations(embedded.executor);
  } catch (error) {
    await embedded.close();
    throw error;
  }
  return embeddedDatabase(embedded);
}
