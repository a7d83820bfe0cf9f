import { Client } from "pg";
import { migrateDatabase } from "../../src/db/database-readiness";
import { embeddedDatabase, postgresDatabase, type Database } from "../../src/db/database";
import { openMemoryDatabase } from "../../src/db/embedded-database";
import { applyMigrations, loadMigrations, type SqlExecutor } from "../../src/db/migrations";
import { postgresExecutor } from "../../src/db/postgres-executor";
import { TEST_DATABASE_URL, createEmptyDatabase, dropDatabase, uniqueDatabaseName } from "./postgres-server";

/** A database of this test pass's engine as an earlier release left it: migrated up to, not including, one migration. */
export interface StagedDatabase {
  /** SQL on the database as the previous release left it. */
  sql: SqlExecutor;
  /** Applies the remaining migrations the way this engine's release does. */
  migrate(): Promise<string[]>;
  /** The service's view of it, after migrating; closing it more than once is harmless. */
  open(): Database;
  close(): Promise<void>;
}

/** The names of `migration` and of every migration after it, in the order they apply. */
export const migrationsFrom = (migration: string) => loadMigrations().filter((m) => m.name >= migration).map((m) => m.name);

/** The database, closed at most once by whichever of the test app and the test gets there first. */
function closingOnce(database: Database): Database {
  let closing: Promise<void> | undefined;
  return { ...database, close: () => (closing ??= database.close()) };
}

export async function stageDatabaseBefore(migration: string): Promise<StagedDatabase> {
  const before = loadMigrations().filter((m) => m.name < migration);
  if (TEST_DATABASE_URL) {
    const name = uniqueDatabaseName("wsi_staged");
    const url = await createEmptyDatabase(TEST_DATABASE_URL, name);
    await migrateDatabase(url, { migrations: before });
    const client = new Client({ connectionString: url });
    await client.connect();
    let served: Database | undefined;
    return {
      sql: postgresExecutor(client),
      migrate: () => migrateDatabase(url),
      open: () => (served = closingOnce(postgresDatabase(url))),
      close: async () => {
        await client.end();
        await served?.close();
        await dropDatabase(TEST_DATABASE_URL!, name);
      },
    };
  }
  const embedded = await openMemoryDatabase();
  await applyMigrations(embedded.executor, before);
  let served: Database | undefined;
  return {
    sql: embedded.executor,
    migrate: () => applyMigrations(embedded.executor),
    open: () => (served = closingOnce(embeddedDatabase(embedded))),
    close: () => (served ? served.close() : embedded.close()),
  };
}
