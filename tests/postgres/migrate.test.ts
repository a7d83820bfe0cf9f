import path from "node:path";
import { assertDatabaseReady, DatabaseNotReadyError, migrateDatabase } from "../../src/db/database-readiness";
import { loadMigrations, MIGRATION_LOCK_KEY } from "../../src/db/migrations";
import { pgvectorProblem } from "../../src/db/pgvector";
import { postgresExecutor } from "../../src/db/postgres-executor";
import { TEST_DATABASE_URL, createEmptyDatabase, dropDatabase, onServer, uniqueDatabaseName } from "../support/postgres-server";
import { waitFor } from "../support/wait-for";
import { spawnTracked } from "../support/child-processes";

const SERVER = TEST_DATABASE_URL!;
const ROOT = path.resolve(__dirname, "../..");
const ALL = loadMigrations().map((m) => m.name);

const created: string[] = [];
async function emptyDatabase(): Promise<string> {
  const name = uniqueDatabaseName("wsi_migrate");
  created.push(name);
  return createEmptyDatabase(SERVER, name);
}
afterAll(async () => {
  for (const name of created) await dropDatabase(SERVER, name);
});

function runMigrateCli(databaseUrl: string): Promise<{ code: number | null; output: string }> {
  const child = spawnTracked(process.execPath, ["--import", "tsx", "src/cli/migrate.ts"], {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: "", DATABASE_URL: databaseUrl },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += String(chunk)));
  child.stderr!.on("data", (chunk) => (output += String(chunk)));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, output })));
}

const appliedRows = (url: string) =>
  onServer(url, async (client) => (await client.query(`SELECT migration_name, finished_at FROM "_prisma_migrations"`)).rows);

describe("npm run migrate on PostgreSQL", () => {
  it("creates the schema with pgvector and records each migration like prisma migrate deploy", async () => {
    const url = await emptyDatabase();
    expect(await migrateDatabase(url)).toEqual(ALL);
    const rows = await appliedRows(url);
    expect(rows.map((row) => row.migration_name)).toEqual(ALL);
    expect(rows.every((row) => row.finished_at instanceof Date)).toBe(true);
    const version = await onServer(url, async (client) => (await client.query(`SELECT extversion FROM pg_extension WHERE extname = 'vector'`)).rows[0]);
    expect(version).toEqual({ extversion: expect.stringMatching(/^0\.(8|9)\.|^[1-9]/) });
  });

  it("applies nothing the second time", async () => {
    const url = await emptyDatabase();
    await migrateDatabase(url);
    expect(await migrateDatabase(url)).toEqual([]);
    expect(await appliedRows(url)).toHaveLength(ALL.length);
  });

  it("lets two releases run at once and applies each migration once", async () => {
    const url = await emptyDatabase();
    const [first, second] = await Promise.all([runMigrateCli(url), runMigrateCli(url)]);
    expect([first.code, second.code]).toEqual([0, 0]);
    const outputs = [first.output, second.output].sort();
    expect(outputs.filter((output) => output.includes(`Applied ${ALL.length} migration`))).toHaveLength(1);
    expect(outputs.filter((output) => output.includes("is up to date"))).toHaveLength(1);
    expect(await appliedRows(url)).toHaveLength(ALL.length);
  });

  it("waits while another run holds the migration lock, then finds nothing left to do", async () => {
    const url = await emptyDatabase();
    await migrateDatabase(url);
    await onServer(url, async (holder) => {
      await holder.query(`SELECT pg_advisory_lock($1)`, [MIGRATION_LOCK_KEY]);
      let waited = false;
      let finished = false;
      const run = migrateDatabase(url, { onWait: () => (waited = true) }).finally(() => (finished = true));
      await waitFor(() => waited || finished, { what: "the second run to wait for the lock" });
      expect({ waited, finished }).toEqual({ waited: true, finished: false });
      await holder.query(`SELECT pg_advisory_unlock($1)`, [MIGRATION_LOCK_KEY]);
      expect(await run).toEqual([]);
    });
  });

  it("refuses a database whose pgvector is older than 0.8.0 and names the command that updates it", async () => {
    const url = await emptyDatabase();
    // The server ships only 0.8.6; make this database's catalog say it holds 0.7.4.
    await onServer(url, (client) => client.query(`CREATE EXTENSION vector; UPDATE pg_extension SET extversion = '0.7.4' WHERE extname = 'vector'`));
    await expect(migrateDatabase(url)).rejects.toThrow(DatabaseNotReadyError);
    await expect(migrateDatabase(url)).rejects.toThrow(/pgvector 0\.7\.4; the service needs pgvector 0\.8\.0 or newer: run `ALTER EXTENSION vector UPDATE;`/);
  });

  it("prints a clear message and exits 1 without DATABASE_URL", async () => {
    const result = await runMigrateCli("");
    expect(result.code).toBe(1);
    expect(result.output).toContain("DATABASE_URL is not set");
  });
});

describe("pgvector requirements", () => {
  it("names a server without pgvector", () => {
    expect(pgvectorProblem({ installed: undefined, available: undefined }, "migrate")).toMatch(/has no pgvector .*choose a server or plan that offers it/);
  });

  it("names a server whose pgvector is too old", () => {
    expect(pgvectorProblem({ installed: undefined, available: "0.7.4" }, "migrate")).toMatch(/offers pgvector 0\.7\.4; .*upgrade pgvector on the server/);
  });

  it("compares versions numerically", () => {
    expect(pgvectorProblem({ installed: "0.10.0", available: "0.10.0" }, "start")).toBeUndefined();
  });
});

describe("the start-up check of a managed database", () => {
  it("refuses an unmigrated database, naming npm run migrate", async () => {
    const url = await emptyDatabase();
    await onServer(url, async (client) => {
      await expect(assertDatabaseReady(postgresExecutor(client))).rejects.toThrow(
        /no `vector` extension yet: run `npm run migrate`[\s\S]*lacks migrations? 20261120000000_init\b[^:]*: run `npm run migrate`/,
      );
    });
  });

  it("refuses a database that misses a migration this release brings", async () => {
    const url = await emptyDatabase();
    await migrateDatabase(url);
    await onServer(url, async (client) => {
      await client.query(`DELETE FROM "_prisma_migrations"`);
      await expect(assertDatabaseReady(postgresExecutor(client))).rejects.toThrow(/lacks migrations? 20261120000000_init\b/);
    });
  });

  it("accepts a migrated database", async () => {
    const url = await emptyDatabase();
    await migrateDatabase(url);
    await onServer(url, async (client) => {
      await expect(assertDatabaseReady(postgresExecutor(client))).resolves.toBeUndefined();
    });
  });
});
