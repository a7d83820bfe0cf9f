import { Client } from "pg";
import { pushArtifact, validatedArtifact } from "../support/artifacts";
import { createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { TEST_DATABASE_URL, createMigratedDatabase, isCitusServer } from "../support/postgres-server";
import { createTestApp, type TestApp } from "../support/test-app";
import { waitFor } from "../support/wait-for";

// A word's row is removed in the transaction that takes its last document away. Another
// transaction that adds the same word meanwhile waits for it and then counts from what it left:
// no count is lost and no row another transaction raised is deleted.

let database: { url: string; drop: () => Promise<void> };
let t: TestApp;
let citus: boolean;
const clients: Client[] = [];

beforeAll(async () => {
  database = await createMigratedDatabase(TEST_DATABASE_URL!);
  t = await createTestApp({ databaseUrl: database.url });
  citus = await isCitusServer(TEST_DATABASE_URL!);
});
afterAll(async () => {
  for (const client of clients) await client.end().catch(() => undefined);
  await t?.close();
  await database?.drop();
});

async function connect(): Promise<Client> {
  const client = new Client({ connectionString: database.url });
  clients.push(client);
  await client.connect();
  return client;
}

const countOf = async (workspaceId: string, lexeme: string) =>
  (await t.database.executor.query<{ documents: number }>(
    `SELECT documents FROM search_term_counts WHERE workspace_id = $1 AND collection = 'artifacts' AND lexeme = $2`,
    [workspaceId, lexeme],
  ))[0]?.documents;

/** Whether some session waits on a row lock (on Citus, on a worker's: citus_lock_waits sees the cluster's). */
async function someoneWaits(): Promise<boolean> {
  const sql = citus
    ? `SELECT count(*)::int AS n FROM citus_lock_waits`
    : `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
  return (await t.database.executor.query<{ n: number }>(sql))[0]!.n > 0;
}

/**
 * The last artifact holding `word` is deleted in one transaction while another validates a draft
 * holding it; the validation waits for the delete, which commits or rolls back.
 */
async function deleteWhileAnotherAdds(ws: WorkspaceWithKey, word: string, end: "COMMIT" | "ROLLBACK"): Promise<void> {
  const last = await validatedArtifact(t, ws.auth, { summary: `${word} renewals slipped` });
  const draft = await pushArtifact(t, ws.auth, { summary: `${word} renewals recovered` });
  expect(await countOf(ws.workspaceId, word.toLowerCase())).toBe(1);
  const [deleting, adding] = [await connect(), await connect()];
  await deleting.query("BEGIN");
  await deleting.query(`DELETE FROM artifacts WHERE workspace_id = $1 AND id = $2`, [ws.workspaceId, last]);
  const added = adding.query(`UPDATE artifacts SET status = 'validated' WHERE workspace_id = $1 AND id = $2`, [ws.workspaceId, draft]);
  try {
    await waitFor(someoneWaits, { what: "the validation waiting on the delete's row lock" });
  } finally {
    await deleting.query(end);
  }
  await added;
}

describe("word counts under concurrent writes", () => {
  it("counts a word added while its last document is deleted, once the delete commits", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    await deleteWhileAnotherAdds(ws, "Ibex", "COMMIT");
    expect(await countOf(ws.workspaceId, "ibex")).toBe(1);
  });

  it("counts both documents when the delete rolls back", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    await deleteWhileAnotherAdds(ws, "Okapi", "ROLLBACK");
    expect(await countOf(ws.workspaceId, "okapi")).toBe(2);
  });
});
