import "dotenv/config";
import { ConfigError, loadDatabaseUrl } from "../config";
import { DatabaseNotReadyError, migrateDatabase } from "../db/database-readiness";

/** Where the migrations went, without the password a connection string may carry. */
function describe(connectionString: string): string {
  const url = new URL(connectionString);
  return `${url.hostname}${url.port ? `:${url.port}` : ""}${url.pathname}`;
}

/**
 * `npm run migrate` and the Procfile's release phase: applies the committed migrations to
 * DATABASE_URL, waiting for any other run (or `prisma migrate deploy`) that holds the lock.
 */
async function main(): Promise<number> {
  const databaseUrl = loadDatabaseUrl();
  if (!databaseUrl) {
    console.error("DATABASE_URL is not set. The embedded database (DATA_DIR) migrates itself when the service starts.");
    return 1;
  }
  const where = describe(databaseUrl);
  const applied = await migrateDatabase(databaseUrl, {
    onWait: () => console.log(`Another migration run holds the lock on ${where}; waiting for it to finish.`),
    onDistributed: (placed) => console.log(`Citus: placed by workspace on ${where}: ${placed.join(", ")}.`),
  });
  console.log(
    applied.length === 0
      ? `The database at ${where} is up to date; no migration to apply.`
      : `Applied ${applied.length} ${applied.length === 1 ? "migration" : "migrations"} to ${where}: ${applied.join(", ")}.`,
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const known = error instanceof ConfigError || error instanceof DatabaseNotReadyError;
    console.error(known ? (error as Error).message : `Migration failed: ${(error as Error).message}`);
    process.exit(1);
  },
);
