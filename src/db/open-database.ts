import type { Config } from "../config";
import { embeddedDatabase, postgresDatabase, type Database } from "./database";
import { openEmbeddedDatabase } from "./embedded-database";
import { applyMigrations } from "./migrations";

/**
 * The database the configuration names: the managed Postgres of DATABASE_URL (migrated by the
 * release phase), or the embedded engine under DATA_DIR, migrated here before first use.
 */
export async function openDatabase(config: Pick<Config, "databaseUrl" | "dataDir">): Promise<Database> {
  if (config.databaseUrl) return postgresDatabase(config.databaseUrl);
  const embedded = await openEmbeddedDatabase(config.dataDir);
  try {
    await applyMigrations(embedded.executor);
  } catch (error) {
    await embedded.close();
    throw error;
  }
  return embeddedDatabase(embedded);
}
