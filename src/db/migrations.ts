import { createHash, randomUUID } from "node:crypto";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { projectRoot } from "../lib/project-root";
import type { NamedStatement, NamedStatementParam } from "./named-statement";

/** The smallest surface both the embedded engine and a `pg` client offer for running SQL. */
export interface SqlExecutor {
  /** Runs one or more statements separated by semicolons; no parameters. */
  exec(sql: string): Promise<void>;
  query<Row>(sql: string, params?: unknown[]): Promise<Row[]>;
  /** A statement a request path runs often, parsed and planned once per connection (named-statement.ts). */
  queryNamed<Row>(statement: NamedStatement, params: NamedStatementParam[]): Promise<Row[]>;
}

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export const MIGRATIONS_DIR = path.join(projectRoot(), "prisma", "migrations");

export function loadMigrations(dir: string = MIGRATIONS_DIR): Migration[] {
  if (!existsSync(dir)) throw new Error(`Migrations folder not found: ${dir}`);
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(dir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

// The same bookkeeping table `prisma migrate deploy` keeps, so a database migrated here and one
// migrated by the Prisma CLI look alike and either tool can take over.
const CREATE_TRACKING_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum" VARCHAR(64) NOT NULL,
    "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL,
    "logs" TEXT,
    "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

/**
 * Applies the committed migrations that the database has not seen yet, each in its own
 * transaction, and refuses to run over a migration whose file changed after it was applied.
 * Returns the names of the migrations applied.
 */
export async function applyMigrations(db: SqlExecutor, migrations: Migration[] = loadMigrations()): Promise<string[]> {
  await db.exec(CREATE_TRACKING_TABLE);
  const appliedByName = await appliedChecksums(db);
  const done: string[] = [];
  for (const migration of migrations) {
    const previous = appliedByName.get(migration.name);
    if (previous !== undefined) {
      if (previous !== migration.checksum) {
        throw new Error(`Migration ${migration.name} was changed after it was applied (checksum mismatch).`);
      }
      continue;
    }
    await db.exec("BEGIN");
    try {
      await db.exec(migration.sql);
      await db.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
         VALUES ($1, $2, now(), $3, 1)`,
        [randomUUID(), migration.checksum, migration.name],
      );
      await db.exec("COMMIT");
    } catch (error) {
      await db.exec("ROLLBACK");
      throw new Error(`Migration ${migration.name} failed: ${(error as Error).message}`);
    }
    done.push(migration.name);
  }
  return done;
}

async function appliedChecksums(db: SqlExecutor): Promise<Map<string, string>> {
  const applied = await db.query<{ migration_name: string; checksum: string }>(
    `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  );
  return new Map(applied.map((row) => [row.migration_name, row.checksum]));
}

/** Committed migrations the database has not applied, and applied ones whose file has changed since. */
export async function migrationStatus(
  db: SqlExecutor,
  migrations: Migration[] = loadMigrations(),
): Promise<{ pending: string[]; changed: string[] }> {
  const [table] = await db.query<{ exists: boolean }>(`SELECT to_regclass('"_prisma_migrations"') IS NOT NULL AS exists`);
  const appliedByName = table?.exists ? await appliedChecksums(db) : new Map<string, string>();
  return {
    pending: migrations.filter((m) => !appliedByName.has(m.name)).map((m) => m.name),
    changed: migrations.filter((m) => appliedByName.has(m.name) && appliedByName.get(m.name) !== m.checksum).map((m) => m.name),
  };
}

/**
 * The session-level advisory lock `prisma migrate deploy` takes, so that two releases, or this
 * runner and the Prisma CLI, never migrate one database at the same time.
 */
export const MIGRATION_LOCK_KEY = 72707369;

/**
 * Applies pending migrations while holding the migration lock; a second runner waits for the first
 * and then finds nothing left to do. `afterwards` runs under the lock too, after the migrations.
 * `db` must be one session (not a pool): the lock belongs to it.
 */
export async function applyMigrationsUnderLock(
  db: SqlExecutor,
  options: { migrations?: Migration[]; onWait?: () => void; afterwards?: (db: SqlExecutor) => Promise<void> } = {},
): Promise<string[]> {
  const [tried] = await db.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock($1) AS locked`, [MIGRATION_LOCK_KEY]);
  if (!tried?.locked) {
    options.onWait?.();
    await db.query(`SELECT pg_advisory_lock($1)`, [MIGRATION_LOCK_KEY]);
  }
  try {
    const applied = await applyMigrations(db, options.migrations);
    await options.afterwards?.(db);
    return applied;
  } finally {
    await db.query(`SELECT pg_advisory_unlock($1)`, [MIGRATION_LOCK_KEY]);
  }
}
