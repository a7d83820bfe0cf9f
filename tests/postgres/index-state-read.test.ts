import { Client } from "pg";
import request from "supertest";
import { postgresDatabase } from "../../src/db/database";
import { adminAuth, createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { createMigratedDatabase, TEST_DATABASE_URL } from "../support/postgres-server";
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from "../support/test-app";
import { waitFor } from "../support/wait-for";

// The admin index state counts every row of a workspace's four vector tables: at 100,000
// artifacts that took longer than a request's statement timeout, and the operator got a 503
// saying the database was not answering. Here the count is held up by a lock instead of by
// volume: it must outlast the sessions' statement timeout and still be answered.

const STATEMENT_TIMEOUT_MS = 1_000;

let drop: () => Promise<void>;
let t: TestApp;
let ws: WorkspaceWithKey;
let locker: Client;
let observer: Client;

beforeAll(async () => {
  let url: string;
  ({ url, drop } = await createMigratedDatabase(TEST_DATABASE_URL!));
  t = await createTestApp({ database: postgresDatabase(url, { poolSize: 4, statementTimeoutMs: STATEMENT_TIMEOUT_MS }) });
  ws = await createWorkspaceWithKey(t.services);
  locker = new Client({ connectionString: url });
  observer = new Client({ connectionString: url });
  await locker.connect();
  await observer.connect();
});

afterAll(async () => {
  await locker?.end();
  await observer?.end();
  await t?.close();
  await drop?.();
});

/** Whether a session has waited on a lock for its count of the memories for more than `seconds` (the server's clock). */
async function countWaitingFor(seconds: number): Promise<boolean> {
  const { rows } = await observer.query(
    `SELECT 1 FROM pg_stat_activity
     WHERE wait_event_type = 'Lock' AND query LIKE '%count(*)%FROM "memories" t%' AND clock_timestamp() - query_start > make_interval(secs => $1)`,
    [seconds],
  );
  return rows.length > 0;
}

describe("the admin index state", () => {
  it("is answered when its counts take longer than a request's statement timeout", async () => {
    await locker.query("BEGIN");
    let answer: request.Response;
    try {
      await locker.query("LOCK TABLE memories IN ACCESS EXCLUSIVE MODE");
      let settled = false;
      const asked = request(t.app)
        .get(`/admin/v1/workspaces/${ws.workspaceId}/index`)
        .set(adminAuth(TEST_ADMIN_TOKEN))
        .then((res) => ((settled = true), res));
      // Held past twice the timeout that would have ended it (or answered already: then the status says how), then let go.
      await waitFor(async () => settled || (await countWaitingFor((2 * STATEMENT_TIMEOUT_MS) / 1000)), { what: "the index state's count waiting past the statement timeout" });
      await locker.query("COMMIT");
      answer = await asked;
    } finally {
      await locker.query("ROLLBACK").catch(() => undefined);
    }
    expect(answer.status).toBe(200);
    expect(answer.body.tables.memories).toEqual(expect.objectContaining({ pending: 0, failed: 0, embedded: 0, skipped: 0, unfindable: 0 }));
  });
});
