import { Client } from "pg";
import { applyMigrationsUnderLock, migrationStatus, type Migration, type SqlExecutor } from "./migrations";
import { pgvectorProblem, readPgvectorState } from "./pgvector";
import { postgresExecutor } from "./postgres-executor";

/** The database cannot serve this release yet; the message names what to run. */
export class DatabaseNotReadyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DatabaseNotReadyError";
  }
}

/**
 * Refuses a managed database that the release phase has not migrated to this code's schema, or
 * whose pgvector is too old, before any request meets a missing table or setting. Migrations newer
 * than this code are fine: during a rolling release the old processes still serve.
 */
export async function assertDatabaseReady(db: SqlExecutor): Promise<void> {
  const problems: string[] = [];
  const vector = pgvectorProblem(await readPgvectorState(db), "start");
  if (vector) problems.push(vector);
  const { pending, changed } = await migrationStatus(db);
  if (pending.length > 0) {
    problems.push(`The database lacks ${pending.length === 1 ? "migration" : "migrations"} ${pending.join(", ")}: run \`npm run migrate\` (the release phase runs \`node dist/cli/migrate.js\`).`);
  }
  if (changed.length > 0) {
    problems.push(`Applied ${changed.length === 1 ? "migration" : "migrations"} ${changed.join(", ")} differ from the committed files: restore the committed migration files.`);
  }
  if (problems.length > 0) throw new DatabaseNotReadyError(problems.join("\n"));
}

/** What `npm run migrate` does: check pgvector, then apply pending migrations under the lock, on one connection. */
export async function migrateDatabase(
  connectionString: string,
  options: { migrations?: Migration[]; onWait?: () => void } = {},
): Promise<string[]> {
  const client = new Client({ connectionString });
  await client.connect();
  try {
    const db = postgresExecutor(client);
    const vector = pgvectorProblem(await readPgvectorState(db), "migrate");
    if (vector) throw new DatabaseNotReadyError(vector);
    return await applyMigrationsUnderLock(db, options);
  } finally {
    await client.end();
  }
}
