import { Client } from "pg";
import { applyMigrationsUnderLock, loadMigrations, migrationStatus, type Migration, type SqlExecutor } from "./migrations";
import { distributeTables, isCitus, namesOf, notYetDistributed } from "./citus-distribution";
import { pgvectorProblem, readPgvectorState } from "./pgvector";
import { postgresExecutor } from "./postgres-executor";

/** The database cannot serve this release yet; the message names what to run. */
export class DatabaseNotReadyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DatabaseNotReadyError";
  }
}

/** DATABASE_URL names a server this process cannot reach or sign in to; the message says which, never with the password. */
export class DatabaseUnreachableError extends DatabaseNotReadyError {
  constructor(message: string) {
    super(message);
    this.name = "DatabaseUnreachableError";
  }
}

// Socket and DNS failures (ECONNREFUSED, ENOTFOUND, ETIMEDOUT…), and the server refusing the
// sign-in or not having the database: what a wrong DATABASE_URL looks like, as opposed to a bug.
const CONNECTION_FAILURE = /^(E[A-Z_]+|28P01|28000|3D000)$/;

/** A connection failure, restated so that it names DATABASE_URL; any other error as it was. */
export function explainConnectionFailure(error: unknown, connectionString: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string" || !CONNECTION_FAILURE.test(code)) return error;
  return new DatabaseUnreachableError(
    `Could not connect to the database DATABASE_URL names (${describeServer(connectionString)}): ${(error as Error).message}. Check that the server runs there and that DATABASE_URL is right.`,
  );
}

function describeServer(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    return `host ${url.hostname || "localhost"}, port ${url.port || "5432"}`;
  } catch {
    return "a connection string that is not a URL";
  }
}

/**
 * Refuses a managed database that the release phase has not migrated to this code's schema, or
 * whose pgvector is too old, before any request meets a missing table or setting. Migrations newer
 * than this code are fine: during a rolling release the old processes still serve.
 */
export async function assertDatabaseReady(db: SqlExecutor, migrations: Migration[] = loadMigrations()): Promise<void> {
  const problems: string[] = [];
  const vector = pgvectorProblem(await readPgvectorState(db), "start");
  if (vector) problems.push(vector);
  const { pending, changed } = await migrationStatus(db, migrations);
  if (pending.length > 0) {
    problems.push(`The database lacks ${pending.length === 1 ? "migration" : "migrations"} ${pending.join(", ")}: run \`npm run migrate\` (the release phase runs \`node dist/cli/migrate.js\`).`);
  }
  const undistributed = namesOf(await notYetDistributed(db));
  if (undistributed.length > 0) {
    problems.push(`On this Citus cluster, ${undistributed.join(", ")} ${undistributed.length === 1 ? "is" : "are"} not yet placed by workspace: run \`npm run migrate\`, which distributes them.`);
  }
  if (changed.length > 0) {
    problems.push(`Applied ${changed.length === 1 ? "migration" : "migrations"} ${changed.join(", ")} differ from the committed files: restore the committed migration files.`);
  }
  if (problems.length > 0) throw new DatabaseNotReadyError(problems.join("\n"));
}

let committed: Migration[] | undefined;

/**
 * The readiness probe's check: the start-up check again (pgvector, every committed migration),
 * against the migration files read once per process, since they cannot change under it. Rejects
 * with DatabaseNotReadyError naming what is missing, or with the driver's error when the database
 * does not answer. Three small catalog reads.
 */
export async function checkDatabaseReady(db: SqlExecutor): Promise<void> {
  committed ??= loadMigrations();
  await assertDatabaseReady(db, committed);
}

/**
 * What `npm run migrate` does: check pgvector, then apply pending migrations under the lock, on one
 * connection; on a Citus coordinator, then place every table by workspace (distributeTables),
 * telling `onDistributed` which tables it placed.
 */
export async function migrateDatabase(
  connectionString: string,
  options: { migrations?: Migration[]; onWait?: () => void; onDistributed?: (tables: string[]) => void } = {},
): Promise<string[]> {
  const client = new Client({ connectionString });
  await client.connect().catch((error: unknown) => {
    throw explainConnectionFailure(error, connectionString);
  });
  try {
    const db = postgresExecutor(client);
    const vector = pgvectorProblem(await readPgvectorState(db), "migrate");
    if (vector) throw new DatabaseNotReadyError(vector);
    if (await isCitus(db)) {
      // A migration may add a trigger to a distributed table (see distributeTables for why that is safe here).
      await db.exec(`SET citus.enable_unsafe_triggers TO on`);
      return await applyMigrationsUnderLock(db, {
        ...options,
        afterwards: async () => {
          const placed = await distributeTables(db);
          if (placed.length > 0) options.onDistributed?.(placed);
        },
      });
    }
    return await applyMigrationsUnderLock(db, options);
  } finally {
    await client.end();
  }
}
