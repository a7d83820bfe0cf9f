import request from "supertest";
import { DEFAULT_DATABASE_POOL_SIZE } from "../../src/config";
import type { SqlExecutor } from "../../src/db/migrations";
import { createWorkspaceWithKey, importContent, type WorkspaceWithKey } from "../support/factories";
import { realisticQuestion, realisticWorkspace } from "../support/realistic-workspace";
import { createTestApp, type TestApp } from "../support/test-app";
import { waitFor } from "../support/wait-for";

// The service runs a search's statements named (parsed and planned once per connection) on the
// embedded engine and on plain PostgreSQL, and unnamed on Citus, whose coordinator plans a statement
// for the shards it reaches (docs/decisions.md). search-statement-reads.test.ts holds the named
// statement's plans; this holds the service to naming them, through a request.

const ON_CITUS = Boolean(process.env.WSI_TEST_CITUS);

let t: TestApp;
let ws: WorkspaceWithKey;

beforeAll(async () => {
  t = await createTestApp();
  ws = await createWorkspaceWithKey(t.services);
  await importContent(t.services, ws.workspaceId, realisticWorkspace({ artifacts: 20, memories: 0 }));
}, 120_000);
afterAll(() => t.close());

/**
 * The search statements prepared on every connection of the service's pool: each connection is
 * held while the next is taken, so that the pool lends each one once.
 */
async function preparedSearchStatements(): Promise<string[]> {
  const names: string[] = [];
  const visit = async (left: number): Promise<void> => {
    if (left === 0) return;
    await t.database.onOneConnection(async (session: SqlExecutor) => {
      const rows = await session.query<{ name: string }>("SELECT name FROM pg_prepared_statements WHERE name LIKE 'wsi_search_%'");
      names.push(...rows.map((row) => row.name));
      // The embedded engine has one connection: another visit would see the same one.
      if (t.database.kind === "postgres") await visit(left - 1);
    });
  };
  await visit(DEFAULT_DATABASE_POOL_SIZE);
  return [...new Set(names)];
}

const search = (n: number) =>
  request(t.app)
    .get("/api/v1/artifacts")
    .query({ query: realisticQuestion(n, 0) })
    .set(ws.auth);

it(ON_CITUS ? "runs a search's statements unnamed on Citus" : "runs a search's statements named once the database is known to have no Citus workers", async () => {
  expect((await search(0)).status).toBe(200);
  if (!ON_CITUS) await waitFor(() => !t.database.nodes.watching(), { what: "the database known to have no Citus workers" });
  const answered = await search(1);
  expect(answered.status).toBe(200);
  expect(answered.body.results.length).toBeGreaterThan(0);
  const prepared = await preparedSearchStatements();
  if (ON_CITUS) expect(prepared).toEqual([]);
  else expect(prepared.length).toBeGreaterThan(0);
});
