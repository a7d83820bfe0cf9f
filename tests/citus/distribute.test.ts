import request from "supertest";
import { notYetDistributed } from "../../src/db/citus-distribution";
import { assertDatabaseReady, DatabaseNotReadyError, migrateDatabase } from "../../src/db/database-readiness";
import { applyMigrations } from "../../src/db/migrations";
import { postgresExecutor } from "../../src/db/postgres-executor";
import { NOT_PER_WORKSPACE } from "../../src/db/table-distribution";
import { validatedArtifact } from "../support/artifacts";
import { createWorkspaceWithKey, importContent, type WorkspaceWithKey } from "../support/factories";
import { TEST_DATABASE_URL, createEmptyDatabase, dropDatabase, onServer, uniqueDatabaseName } from "../support/postgres-server";
import { createTestApp, type TestApp } from "../support/test-app";

// `npm run migrate` on a Citus coordinator distributes the tables, on a fresh database and on one
// that already holds the service's data (a customer moving an existing database to Citus).

const SERVER = TEST_DATABASE_URL!;
const created: string[] = [];
async function emptyDatabase(): Promise<string> {
  const name = uniqueDatabaseName("wsi_distribute");
  created.push(name);
  return createEmptyDatabase(SERVER, name);
}
afterAll(async () => {
  for (const name of created) await dropDatabase(SERVER, name);
});

interface Placement {
  table: string;
  method: string | null;
  column: string | null;
  colocation: number | null;
  reference: boolean;
}

const placements = (url: string) =>
  onServer(url, async (client) =>
    (
      await client.query<Placement>(
        `SELECT c.relname::text AS table, p.partmethod::text AS method,
                CASE WHEN p.partmethod = 'h' THEN column_to_column_name(p.logicalrelid, p.partkey) END AS column,
                p.colocationid AS colocation, coalesce(p.repmodel = 't', false) AS reference
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace LEFT JOIN pg_dist_partition p ON p.logicalrelid = c.oid
         WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY c.relname`,
      )
    ).rows,
  );

/** Rows per table, by a count on the coordinator (through the shards once distributed). */
const rowCounts = (url: string, tables: string[]) =>
  onServer(url, async (client) => {
    const counts: Record<string, number> = {};
    for (const table of tables) counts[table] = Number((await client.query(`SELECT count(*) AS n FROM "${table}"`)).rows[0].n);
    return counts;
  });

function expectPlacedByWorkspace(rows: Placement[]) {
  const workspaces = rows.find((row) => row.table === "workspaces")!;
  expect(workspaces).toMatchObject({ method: "h", column: "id" });
  for (const row of rows) {
    const shared = NOT_PER_WORKSPACE[row.table];
    if (shared?.kind === "reference") expect({ table: row.table, reference: row.reference }).toEqual({ table: row.table, reference: true });
    else if (shared?.kind === "local") expect({ table: row.table, method: row.method }).toEqual({ table: row.table, method: null });
    else if (row.table !== "workspaces") {
      expect({ table: row.table, method: row.method, column: row.column, colocation: row.colocation }).toEqual({
        table: row.table,
        method: "h",
        column: "workspace_id",
        colocation: workspaces.colocation,
      });
    }
  }
}

describe("npm run migrate on a Citus coordinator", () => {
  it("distributes every table of workspace data by workspace_id in one colocation group, the shared ones as reference tables", async () => {
    const url = await emptyDatabase();
    const distributed: string[][] = [];
    await migrateDatabase(url, { onDistributed: (tables) => distributed.push(tables) });
    expectPlacedByWorkspace(await placements(url));
    expect(distributed).toHaveLength(1);
    // Idempotent: a second run applies and places nothing.
    expect(await migrateDatabase(url, { onDistributed: (tables) => distributed.push(tables) })).toEqual([]);
    expect(distributed).toHaveLength(1);
  });

  describe("on a database that already holds the service's data", () => {
    let url: string;
    let t: TestApp;
    let ws: WorkspaceWithKey;
    let artifactId: string;
    const query = "big clients cancelling more";
    let before: { counts: Record<string, number>; found: string[] };

    beforeAll(async () => {
      url = await emptyDatabase();
      // Migrated as the service was before the database was moved onto Citus: tables on the coordinator.
      await onServer(url, (client) => applyMigrations(postgresExecutor(client)));
      t = await createTestApp({ databaseUrl: url });
      ws = await createWorkspaceWithKey(t.services);
      await importContent(t.services, ws.workspaceId, { memories: [{ type: "definition", statement: "Churn is the share of accounts that cancel in a month" }] });
      artifactId = await validatedArtifact(t, ws.auth, { summary: "Enterprise churn doubled in Q3" });
      await validatedArtifact(t, ws.auth, { summary: "Mobile refunds rose in October" });
      await t.services.indexer.runOnce();
      const counts = await rowCounts(url, ["workspaces", "api_keys", "artifacts", "artifact_embeddings", "memories", "search_term_counts"]);
      const found = (await request(t.app).get("/api/v1/artifacts").query({ query }).set(ws.auth).expect(200)).body.results.map((item: { id: string }) => item.id);
      before = { counts, found };
    });
    afterAll(() => t?.close());

    it("is refused by the service until migrated, naming the command", async () => {
      const refusal = onServer(url, (client) => assertDatabaseReady(postgresExecutor(client)));
      await expect(refusal).rejects.toThrow(DatabaseNotReadyError);
      await expect(onServer(url, (client) => assertDatabaseReady(postgresExecutor(client)))).rejects.toThrow(/not yet placed by workspace: run `npm run migrate`/);
    });

    it("moves every row into the shards, keeps the counts and answers the same search", async () => {
      expect(before.found).toContain(artifactId);
      await migrateDatabase(url);
      expect(await onServer(url, (client) => notYetDistributed(postgresExecutor(client)))).toEqual({ tables: [], functions: [] });
      expectPlacedByWorkspace(await placements(url));
      expect(await rowCounts(url, Object.keys(before.counts))).toEqual(before.counts);
      const found = (await request(t.app).get("/api/v1/artifacts").query({ query }).set(ws.auth).expect(200)).body.results.map((item: { id: string }) => item.id);
      expect(found).toEqual(before.found);
      await onServer(url, (client) => assertDatabaseReady(postgresExecutor(client)));
    });
  });
});
