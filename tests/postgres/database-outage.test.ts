import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Options } from "express-rate-limit";
import request from "supertest";
import { DEFAULT_DATABASE_CONNECT_TIMEOUT_MS, DEFAULT_DATABASE_POOL_SIZE, DEFAULT_DATABASE_STATEMENT_TIMEOUT_MS } from "../../src/config";
import { postgresDatabase } from "../../src/db/database";
import { migrateDatabase } from "../../src/db/database-readiness";
import { PostgresRateLimitStore, SYNC_INTERVAL_MS } from "../../src/http/rate-limit/postgres-store";
import { createRateLimitCounterRepository } from "../../src/repositories/rate-limit-counter.repository";
import { ATTR_UNAVAILABLE_CAUSE, METRIC_DATABASE_UNAVAILABLE } from "../../src/telemetry/conventions";
import { minimalArtifact } from "../support/artifacts";
import { collectMetrics } from "../support/collected-metrics";
import { createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { callTool, connectMcpClient, errorText, listen, MCP_HEADERS, type ListeningApp } from "../support/mcp-client";
import { createTestApp, type TestApp } from "../support/test-app";
import { waitFor } from "../support/wait-for";

// The whole database away, as when a managed PostgreSQL restarts or fails over: a server of this
// file's own (the shared tool), stopped and started again under the running service. Requests that
// need it are answered 503 with Retry-After at once, and served again once it is back, with no
// restart of the service.

const TOOL = process.env.POSTGRES_TOOL ?? path.resolve(__dirname, "..", "..", "..", "shared", "tools", "postgres");
const asPostgres = (command: string, args: string[]) =>
  os.userInfo().uid === 0 ? execFileSync("runuser", ["-u", "postgres", "--", command, ...args]) : execFileSync(command, args);

// Before anything records: the instruments are made on first use, from the global provider.
const collected = collectMetrics();

/** The 503s counted so far, by cause. */
async function unavailableByCause(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const point of await collected.points(METRIC_DATABASE_UNAVAILABLE)) {
    const cause = String(point.attributes[ATTR_UNAVAILABLE_CAUSE]);
    counts[cause] = (counts[cause] ?? 0) + point.value;
  }
  return counts;
}

let dir: string;
let pgCtl: (...args: string[]) => void;
let startAgain: () => void;
let t: TestApp;
let ws: WorkspaceWithKey;
/** A workspace whose key this process has not looked up when the database goes. */
let stranger: WorkspaceWithKey;
let mcp: ListeningApp;

beforeAll(async () => {
  if (!existsSync(TOOL)) throw new Error(`this test starts a PostgreSQL server of its own with ${TOOL}: set POSTGRES_TOOL`);
  dir = mkdtempSync(path.join(os.tmpdir(), "wsi-outage-"));
  const url = execFileSync(TOOL, ["start", dir]).toString().trim().split("\n").pop()!.replace(/^DATABASE_URL=/, "");
  const port = readFileSync(path.join(dir, "port"), "utf8").trim();
  const bin = execFileSync(TOOL, ["install"]).toString().trim().split("\n").pop()!;
  pgCtl = (...args) => void asPostgres(path.join(bin, "pg_ctl"), ["-D", path.join(dir, "data"), ...args]);
  // As the tool starts it: the same port and socket directory.
  startAgain = () => pgCtl("-w", "-t", "60", "-l", path.join(dir, "server.log"), "-o", `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, "start");
  await migrateDatabase(url);
  t = await createTestApp({
    database: postgresDatabase(url, { poolSize: DEFAULT_DATABASE_POOL_SIZE, connectTimeoutMs: DEFAULT_DATABASE_CONNECT_TIMEOUT_MS, statementTimeoutMs: DEFAULT_DATABASE_STATEMENT_TIMEOUT_MS }),
    // The key's look-up outlives the outage however slow the machine: the MCP call below is then
    // answered by a tool, which needs the database, not refused by authentication (an HTTP 503).
    apiKeyCacheTtlMs: 60_000,
  });
  ws = await createWorkspaceWithKey(t.services);
  stranger = await createWorkspaceWithKey(t.services);
  mcp = await listen(t.app);
});

afterAll(async () => {
  await mcp?.close();
  await t?.close();
  await collected.shutdown();
  if (dir) execFileSync(TOOL, ["stop", dir]);
});

/** Asks until `ok`, however long the machine takes, with a ceiling. */
const until = (what: string, ask: () => Promise<{ status: number }>) => waitFor(async () => (await ask()).status < 500, { what, everyMs: 100 });

describe("the database stopped under a running service", () => {
  it("answers 503 with Retry-After while it is away, and serves again once it is back, without a restart", async () => {
    const artifactId = (await request(t.app).post("/api/v1/artifacts").set(ws.auth).send(minimalArtifact()).expect(201)).body.artifactId;
    const client = await connectMcpClient(mcp.baseUrl, ws.key);
    // The key is known to this process (its look-up is kept, see above): what follows needs the database itself.
    const countedBefore = (await unavailableByCause()).connection ?? 0;
    pgCtl("-m", "fast", "-w", "stop");
    try {
      const asks = {
        briefing: () => request(t.app).get("/api/v1/briefing").set(ws.auth),
        search: () => request(t.app).get("/api/v1/artifacts").query({ query: "churn" }).set(ws.auth),
        fetch: () => request(t.app).get(`/api/v1/artifacts/${artifactId}`).set(ws.auth),
        push: () => request(t.app).post("/api/v1/artifacts").set(ws.auth).send(minimalArtifact()),
        admin: () => request(t.app).get(`/admin/v1/workspaces/${ws.workspaceId}/keys`).set({ Authorization: `Bearer ${t.adminToken}` }),
      };
      for (const [name, ask] of Object.entries(asks)) {
        const started = Date.now();
        const res = await ask();
        expect({ name, status: res.status }).toEqual({ name, status: 503 });
        expect(res.headers["retry-after"]).toBe("5");
        expect(res.body).toEqual({ error: expect.stringMatching(/cannot be reached right now.*retry/), code: "service_unavailable" });
        // A refused connection is known at once; the bound is the connect timeout.
        expect(Date.now() - started).toBeLessThan(DEFAULT_DATABASE_CONNECT_TIMEOUT_MS + 1_000);
      }
      // MCP: a tool error the agent can read, not a broken transport. A second since the last
      // request, so that the key's rate counter must try to sync with the database first.
      await new Promise((resolve) => setTimeout(resolve, SYNC_INTERVAL_MS + 50));
      const result = await callTool(client, "get_briefing");
      expect(result.isError).toBe(true);
      expect(errorText(result)).toMatch(/cannot be reached right now/);
      // Each answer counted once, as a connection that could not be made (the operator's alert).
      const counted = await unavailableByCause();
      expect((counted.connection ?? 0) - countedBefore).toBe(Object.keys(asks).length + 1);
      expect(counted.statement_timeout ?? 0).toBe(0);
      // A key this process cannot check yet: MCP refuses at HTTP, as REST does, with when to retry.
      const unchecked = await fetch(`${mcp.baseUrl}/mcp`, {
        method: "POST",
        headers: { ...MCP_HEADERS, Authorization: `Bearer ${stranger.key}` },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "curl", version: "1" } } }),
      });
      expect(unchecked.status).toBe(503);
      expect(unchecked.headers.get("retry-after")).toBe("5");
      expect(await unchecked.json()).toEqual({ error: expect.stringMatching(/cannot be reached right now/), code: "service_unavailable" });
    } finally {
      startAgain();
    }
    await until("the briefing to be served again", () => request(t.app).get("/api/v1/briefing").set(ws.auth));
    await request(t.app).get(`/api/v1/artifacts/${artifactId}`).set(ws.auth).expect(404);
    expect((await callTool(client, "get_briefing")).isError).toBeFalsy();
    await client.close();
  });

  it("stores a push retried with its Idempotency-Key after a 503 once", async () => {
    const push = () => request(t.app).post("/api/v1/artifacts").set(ws.auth).set("Idempotency-Key", "outage-retry").send(minimalArtifact({ summary: "Refunds rose in Japan" }));
    pgCtl("-m", "fast", "-w", "stop");
    try {
      expect((await push()).status).toBe(503);
    } finally {
      startAgain();
    }
    await until("the push to be stored", push);
    const first = await push().expect(201);
    const again = await push().expect(201);
    expect(again.body.artifactId).toBe(first.body.artifactId);
    const [counted] = await t.database.executor.query<{ n: number }>(`SELECT count(*)::int AS n FROM artifacts WHERE workspace_id = $1 AND summary = $2`, [
      ws.workspaceId,
      "Refunds rose in Japan",
    ]);
    expect(counted?.n).toBe(1);
  });

  it("limits a key by the process's own count while the database is away, and adds those hits to the shared count once it is back", async () => {
    const store = new PostgresRateLimitStore(createRateLimitCounterRepository(t.database.prisma), "outage-test:");
    store.init({ windowMs: 60_000, limit: 4 } as Options);
    const hit = async () => (await store.increment("k")).totalHits;
    const inDatabase = async () => {
      const [row] = await t.database.executor.query<{ hits: number }>(`SELECT hits FROM rate_limit_counters WHERE key = $1`, ["outage-test:k"]);
      return row?.hits ?? 0;
    };
    // From half the limit on, every hit is added to the database's count at once.
    expect([await hit(), await hit()]).toEqual([1, 2]);
    pgCtl("-m", "fast", "-w", "stop");
    try {
      // Each of these tried the database, and was counted by the process: the fifth is past the limit.
      expect([await hit(), await hit(), await hit()]).toEqual([3, 4, 5]);
    } finally {
      startAgain();
    }
    await until("the database to answer again", () => request(t.app).get("/api/v1/briefing").set(ws.auth));
    expect(await inDatabase()).toBe(2);
    // The first sync once it is back adds the hits counted while it was away.
    expect(await hit()).toBe(6);
    expect(await inDatabase()).toBe(6);
  });
});
