import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "pg";
import request from "supertest";
import { DEFAULT_DATABASE_CONNECT_TIMEOUT_MS, DEFAULT_DATABASE_POOL_SIZE, DEFAULT_DATABASE_STATEMENT_TIMEOUT_MS } from "../../src/config";
import { PLACEMENT_TTL_MS } from "../../src/db/cluster-nodes";
import { postgresDatabase } from "../../src/db/database";
import { isDatabaseUnavailable, toDomainError } from "../../src/db/database-errors";
import { migrateDatabase } from "../../src/db/database-readiness";
import { observeNodeReachability } from "../../src/telemetry/instruments";
import { ATTR_DATABASE_NODE, ATTR_UNAVAILABLE_CAUSE, METRIC_DATABASE_NODE_REACHABLE, METRIC_DATABASE_UNAVAILABLE } from "../../src/telemetry/conventions";
import { collectMetrics } from "../support/collected-metrics";
import { consoleSession, createReviewer } from "../support/console";
import { createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { callTool, connectMcpClient, errorText, listen, type ListeningApp } from "../support/mcp-client";
import { createTestApp, type TestApp } from "../support/test-app";
import { waitFor } from "../support/wait-for";

// Under a running service, on a Citus cluster of this file's own (the pass's shared one serves
// every other file meanwhile; a coordinator and two workers): a worker killed, one hung (SIGSTOP),
// one killed amid pushes, and the coordinator restarted. Keys are looked up through a table on
// every node, so the workspaces on the healthy worker go on being served, keys this process has
// not seen included; the away node's are answered 503 with Retry-After within 2 s; nothing
// acknowledged is lost; and everything is served again once the node is back, with no restart.

const CLUSTER = path.resolve(__dirname, "..", "..", "scripts", "citus-cluster.sh");
const TOOL = process.env.CITUS_TOOL ?? path.resolve(__dirname, "..", "..", "..", "shared", "tools", "citus");

const execFileAsync = promisify(execFile);

// Before anything records: the instruments are made on first use, from the global provider.
const collected = collectMetrics();

/** The reachability gauge by node, as a metrics exporter would read it now. */
async function reachability(): Promise<Record<string, number>> {
  return Object.fromEntries((await collected.points(METRIC_DATABASE_NODE_REACHABLE)).map((point) => [String(point.attributes[ATTR_DATABASE_NODE]), point.value]));
}

const refusedAsUnreachable = async () =>
  (await collected.points(METRIC_DATABASE_UNAVAILABLE)).filter((point) => point.attributes[ATTR_UNAVAILABLE_CAUSE] === "node_unreachable").reduce((sum, point) => sum + point.value, 0);

// What the service knows of the nodes ages by this clock, which a test moves on.
let nodesSkewMs = 0;
const nodesClock = { now: () => new Date(Date.now() + nodesSkewMs) };

let dir: string;
let url: string;
let workerNames: Map<number, string>;
let t: TestApp;
let mcp: ListeningApp;
const onWorker: Record<string, WorkspaceWithKey[]> = {};

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "wsi-citus-outage-"));
  url = execFileSync(CLUSTER, ["start", dir]).toString().trim().split("\n").pop()!.replace(/^DATABASE_URL=/, "");
  await migrateDatabase(url);
  t = await createTestApp({
    database: postgresDatabase(url, {
      poolSize: DEFAULT_DATABASE_POOL_SIZE,
      connectTimeoutMs: DEFAULT_DATABASE_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: DEFAULT_DATABASE_STATEMENT_TIMEOUT_MS,
      clock: nodesClock,
    }),
  });
  mcp = await listen(t.app);
  // As the server process wires it.
  observeNodeReachability(() => t.database.nodes.known());
  // Workspaces until both workers hold some: a workspace's node is its shard's.
  const workers = new Map(
    (await t.database.executor.query<{ name: string; port: number }>(`SELECT nodename AS name, nodeport AS port FROM pg_dist_node WHERE groupid > 0 ORDER BY groupid`)).map(
      (node, i) => [node.port, `worker${i + 1}`],
    ),
  );
  workerNames = new Map(
    (await t.database.executor.query<{ name: string; port: number }>(`SELECT nodename AS name, nodeport AS port FROM pg_dist_node WHERE groupid > 0 ORDER BY groupid`)).map(
      (node, i) => [i + 1, `${node.name}:${node.port}`],
    ),
  );
  while (!(onWorker.worker1?.length && onWorker.worker2?.length)) {
    const ws = await createWorkspaceWithKey(t.services);
    const [placed] = await t.database.executor.query<{ port: number }>(
      `SELECT nodeport AS port FROM citus_shards WHERE table_name = 'workspaces'::regclass AND shardid = get_shard_id_for_distribution_column('workspaces', $1::text)`,
      [ws.workspaceId],
    );
    (onWorker[workers.get(placed!.port)!] ??= []).push(ws);
  }
}, 600_000);

afterAll(async () => {
  await mcp?.close();
  await t?.close();
  if (dir) execFileSync(CLUSTER, ["stop", dir]);
});

/** The coordinator's URL pointed at a node (`host:port`, as workerNames holds it), the same database. */
const urlOfNode = (node: string) => {
  const nodeUrl = new URL(url);
  nodeUrl.host = node;
  return nodeUrl.toString();
};

const briefing = (ws: WorkspaceWithKey) => request(t.app).get("/api/v1/briefing").set(ws.auth);

describe("a Citus worker killed under a running service", () => {
  it("refuses only the dead worker's workspaces, quickly, says so in its metrics, and serves them again once it is back", async () => {
    const worker2 = workerNames.get(2)!;
    const refusedBefore = await refusedAsUnreachable();
    execFileSync(TOOL, ["node", dir, "worker2", "kill"]);
    try {
      // Keys this process has not looked up yet, as every key is once its cached look-up expires.
      for (const ws of onWorker.worker1!) await briefing(ws).expect(200);
      for (const ws of onWorker.worker2!) {
        const started = Date.now();
        const res = await briefing(ws);
        expect(res.status).toBe(503);
        expect(res.headers["retry-after"]).toBe("5");
        expect(res.body.code).toBe("service_unavailable");
        expect(Date.now() - started).toBeLessThan(2_000);
      }
      // Once the node is known to be away its workspaces are refused before a statement is sent.
      await briefing(onWorker.worker2![0]!).expect(503);
      // The operator's view: the node is down on the gauge, and the refusals are counted by their cause.
      expect((await reachability())[worker2]).toBe(0);
      expect(await refusedAsUnreachable()).toBeGreaterThan(refusedBefore);
    } finally {
      execFileSync(TOOL, ["node", dir, "worker2", "start"]);
    }
    await waitFor(async () => (await briefing(onWorker.worker2![0]!)).status === 200, { what: "the dead worker's workspace to be served again", everyMs: 100 });
    for (const ws of [...onWorker.worker1!, ...onWorker.worker2!]) await briefing(ws).expect(200);
    expect(await reachability()).toMatchObject({ [worker2]: 1, [workerNames.get(1)!]: 1 });
  });
});

const timed = async (ws: WorkspaceWithKey) => {
  const started = Date.now();
  const res = await briefing(ws);
  return { status: res.status, retryAfter: res.headers["retry-after"], ms: Date.now() - started, error: (res.body as { error?: string }).error };
};

/** The coordinator's client sessions of this database that have run one statement for over a second (the nodes' checks aside). */
async function stuckSessions(): Promise<number> {
  const observer = new Client({ connectionString: url });
  await observer.connect();
  try {
    const { rows } = await observer.query<{ stuck: number }>(
      `SELECT count(*)::int AS stuck FROM pg_stat_activity
       WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid() AND state = 'active'
         AND query_start < now() - interval '1 second' AND query NOT LIKE '%citus_check_connection_to_node%'`,
    );
    return rows[0]!.stuck;
  } finally {
    await observer.end();
  }
}

describe("a Citus worker that hangs under a running service", () => {
  it("refuses only the hung worker's workspaces, within 2 s, without starving the pool, and serves them again once it answers", async () => {
    // Every pooled connection has met both workers: the coordinator holds connections to the worker that will hang.
    await Promise.all([...onWorker.worker1!, ...onWorker.worker2!].flatMap((ws) => [briefing(ws).expect(200), briefing(ws).expect(200)]));
    const agents = await Promise.all([onWorker.worker1![0]!, onWorker.worker2![0]!].map((ws) => connectMcpClient(mcp.baseUrl, ws.key)));
    // Every workspace's node found longer ago than it is taken as known, while the keys stay
    // cached: the requests look nothing up, and must still be held to their node's share.
    nodesSkewMs += PLACEMENT_TTL_MS + 1_000;
    execFileSync(TOOL, ["node", dir, "worker2", "pause"]);
    try {
      // More requests at once than the pool has connections, half of them to the hung worker.
      const rounds = Math.ceil((2 * DEFAULT_DATABASE_POOL_SIZE) / onWorker.worker2!.length);
      const hung = Array.from({ length: rounds }, () => onWorker.worker2!).flat();
      const healthy = Array.from({ length: rounds }, () => onWorker.worker1!).flat();
      const [away, served] = await Promise.all([Promise.all(hung.map(timed)), Promise.all(healthy.map(timed))]);
      expect(away.filter((answer) => answer.status !== 503 || answer.retryAfter !== "5")).toEqual([]);
      expect(served.filter((answer) => answer.status !== 200)).toEqual([]);
      expect(Math.max(...away.map((answer) => answer.ms))).toBeLessThan(2_000);
      // The bulkhead: the coordinator's sessions whose statements went to the hung worker stay
      // stuck until it answers (its cancel waits on it), and there are at most the node's share.
      expect(await stuckSessions()).toBeLessThanOrEqual(DEFAULT_DATABASE_POOL_SIZE - 2);
      // Once the worker is known to be away, its workspaces are refused before the pool is asked.
      for (const ws of onWorker.worker2!) expect(await timed(ws)).toMatchObject({ status: 503 });
      const readiness = await request(t.app).get("/readyz").expect(200);
      expect(readiness.body.nodes.filter((node: { reachable: boolean }) => !node.reachable)).toHaveLength(1);
      // An agent on MCP hears it as a tool error naming the node; the other worker's agent is served.
      const [healthyTool, refusedTool] = await Promise.all(agents.map((agent) => callTool(agent, "get_briefing")));
      expect(healthyTool!.isError).toBeFalsy();
      expect(refusedTool!.isError).toBe(true);
      expect(errorText(refusedTool!)).toMatch(/database node that holds it \(.+:\d+\) is not answering/);
    } finally {
      execFileSync(TOOL, ["node", dir, "worker2", "resume"]);
    }
    await waitFor(async () => (await briefing(onWorker.worker2![0]!)).status === 200, { what: "the hung worker's workspace to be served again", everyMs: 100 });
    for (const ws of [...onWorker.worker1!, ...onWorker.worker2!]) await briefing(ws).expect(200);
    const readiness = await request(t.app).get("/readyz").expect(200);
    expect(readiness.body.nodes.every((node: { reachable: boolean }) => node.reachable)).toBe(true);
    expect((await callTool(agents[1]!, "get_briefing")).isError).toBeFalsy();
    await Promise.all(agents.map((agent) => agent.close()));
  });
});

describe("the admin index state of a workspace whose worker hangs", () => {
  it("is refused as unavailable within 2 s, though its counts may run for a minute, and answered again once the worker answers", async () => {
    const ws = onWorker.worker2![0]!;
    const state = () => t.services.indexer.state(ws.workspaceId);
    await state();
    execFileSync(TOOL, ["node", dir, "worker2", "pause"]);
    try {
      const started = Date.now();
      // A ceiling, not a wait: a read that would hold on for its minute fails here, and the
      // worker is still resumed (a paused node outlives the cluster's stop).
      let ceiling: NodeJS.Timeout | undefined;
      const refusal = await Promise.race([
        state().then(
          () => "answered",
          (error: unknown) => error,
        ),
        new Promise((resolve) => (ceiling = setTimeout(resolve, 10_000, "still waiting after 10 s"))),
      ]);
      clearTimeout(ceiling);
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(isDatabaseUnavailable(refusal)).toBe(true);
    } finally {
      execFileSync(TOOL, ["node", dir, "worker2", "resume"]);
    }
    await waitFor(() => state().then(() => true, () => false), { what: "the index state answered again", everyMs: 100 });
  });
});

const push = (ws: WorkspaceWithKey, key: string) =>
  request(t.app).post("/api/v1/artifacts").set(ws.auth).set("Idempotency-Key", key).send({ summary: `Storm ${key}`, why: "w", confidence: 0.5, confidenceExplanation: "e" });

describe("a transaction whose worker is killed before it commits", () => {
  // The second worker's session of the transaction killed (as the worker's own crash would): the
  // coordinator's COMMIT meets a connection that broke under it without a word from the worker,
  // which Citus reports with SQLSTATE XX000. Written on both workers, the commit is two-phase and
  // fails at PREPARE with libpq's words; written on the one worker, it is sent COMMIT alone and
  // fails after it, in Citus's words ("could not commit transaction for shard … on at least one
  // active node"), as a push (one statement) does when its worker dies under it.
  // (Stopping the whole worker instead lets its session say 57P01 first, or not, by timing.)
  it.each([
    ["on both workers (two-phase)", () => [onWorker.worker1![0]!, onWorker.worker2![0]!], /^(SSL SYSCALL error|server closed the connection unexpectedly|could not (receive data from|send data to) server|connection not open|no connection to the server)/],
    ["on the killed worker only", () => [onWorker.worker2![0]!], /^could not commit transaction for shard \d+ on at least one active node$/],
  ])("written %s, fails as the database away (a 503), not as a fault of the statement", async (_, written, words) => {
    const client = new Client({ connectionString: url });
    const worker = new Client({ connectionString: urlOfNode(workerNames.get(2)!) });
    // The worker restarts its sessions after the kill, this observer's too: heard, not thrown.
    for (const session of [client, worker]) session.on("error", () => undefined);
    await Promise.all([client.connect(), worker.connect()]);
    try {
      await client.query("BEGIN");
      for (const ws of written()) await client.query("UPDATE workspaces SET name = name WHERE id = $1", [ws.workspaceId]);
      const [session] = (
        await worker.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE state LIKE 'idle in transaction%' AND query LIKE '%UPDATE%workspaces%'")
      ).rows;
      process.kill(session!.pid, "SIGKILL");
      const failed = await client.query("COMMIT").then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failed).toMatchObject({ code: "XX000", message: expect.stringMatching(words) });
      expect(isDatabaseUnavailable(failed)).toBe(true);
      expect(toDomainError(failed)?.kind).toBe("unavailable");
    } finally {
      await Promise.all([client.end().catch(() => undefined), worker.end().catch(() => undefined)]);
    }
    await waitFor(async () => (await briefing(onWorker.worker2![0]!)).status === 200, { what: "the dead worker's workspace to be served again", everyMs: 100 });
  });
});

describe("pushes while a Citus worker is killed", () => {
  it("loses none it acknowledged, refuses only the dead worker's, and stores a push retried with its Idempotency-Key once", async () => {
    const everyWorkspace = [...onWorker.worker1!, ...onWorker.worker2!];
    const planned = everyWorkspace.flatMap((ws) => Array.from({ length: 6 }, (_, i) => ({ ws, key: `storm-${ws.workspaceId}-${i}` })));
    const answers = new Map<string, number>();
    const wave = async (part: typeof planned) => {
      for (const [i, res] of (await Promise.all(part.map(({ ws, key }) => push(ws, key)))).entries()) answers.set(part[i]!.key, res.status);
    };
    await wave(planned.filter((_, i) => i % 3 === 0));
    const killed = execFileAsync(TOOL, ["node", dir, "worker2", "kill"]);
    await Promise.all([killed, wave(planned.filter((_, i) => i % 3 === 1))]);
    try {
      await wave(planned.filter((_, i) => i % 3 === 2));
    } finally {
      execFileSync(TOOL, ["node", dir, "worker2", "start"]);
    }
    // The healthy worker's workspaces were never refused; the dead one's only with 503.
    const healthyKeys = new Set(planned.filter(({ ws }) => onWorker.worker1!.includes(ws)).map(({ key }) => key));
    expect([...answers].filter(([key, status]) => healthyKeys.has(key) && status !== 201)).toEqual([]);
    expect([...answers].filter(([, status]) => status !== 201 && status !== 503)).toEqual([]);
    // The last wave came while the worker was dead: its workspaces' pushes were all refused.
    const refusedWhileDead = planned.filter((p, i) => i % 3 === 2 && !healthyKeys.has(p.key)).map(({ key }) => answers.get(key));
    expect(refusedWhileDead.length).toBeGreaterThan(0);
    expect(refusedWhileDead.every((status) => status === 503)).toBe(true);
    // Every push refused is sent again with its key until it is stored.
    for (const { ws, key } of planned.filter(({ key }) => answers.get(key) !== 201)) {
      await waitFor(async () => (await push(ws, key)).status === 201, { what: `push ${key} to be stored once its worker is back`, everyMs: 100 });
    }
    // Each push stored exactly once, those acknowledged before included.
    const stored = await t.database.executor.query<{ summary: string; copies: number }>(
      `SELECT summary, count(*)::int AS copies FROM artifacts WHERE workspace_id = ANY($1::text[]) AND summary LIKE 'Storm storm-%' GROUP BY summary`,
      [everyWorkspace.map((ws) => ws.workspaceId)],
    );
    expect(stored.filter((row) => row.copies !== 1)).toEqual([]);
    expect(stored.map((row) => row.summary).sort()).toEqual(planned.map(({ key }) => `Storm ${key}`).sort());
  });
});

describe("the coordinator restarted under a running service", () => {
  it("answers 503 with Retry-After quickly while it is down, and serves everything again within 5 s of its return, with no restart", async () => {
    const everyWorkspace = [...onWorker.worker1!, ...onWorker.worker2!];
    execFileSync(TOOL, ["node", dir, "coordinator", "stop"]);
    try {
      for (const ws of everyWorkspace) {
        const answer = await timed(ws);
        expect(answer).toMatchObject({ status: 503, retryAfter: "5" });
        expect(answer.ms).toBeLessThan(2_000);
      }
    } finally {
      execFileSync(TOOL, ["node", dir, "coordinator", "start"]);
    }
    const back = Date.now();
    await waitFor(async () => (await Promise.all(everyWorkspace.map(briefing))).every((res) => res.status === 200), { what: "every workspace to be served again", everyMs: 100 });
    expect(Date.now() - back).toBeLessThan(5_000);
  });
});

// Last: its kill and restart of a worker leaves the pooled sessions' connections to it for the next test to meet.
describe("the review console while a Citus worker is killed", () => {
  it("serves the healthy worker's workspaces, lists the dead one's by id, and answers its pages 503", async () => {
    const [healthy, away] = [onWorker.worker1![0]!, onWorker.worker2![0]!];
    const reviewer = await createReviewer(t, healthy.workspaceId);
    await t.services.reviewers.add(away.workspaceId, { email: reviewer.email, name: reviewer.name, password: reviewer.password });
    const { agent } = await consoleSession(t, reviewer.email, reviewer.password);
    const [healthyName, awayName] = [(await t.services.workspaces.get(healthy.workspaceId)).name, (await t.services.workspaces.get(away.workspaceId)).name];
    execFileSync(TOOL, ["node", dir, "worker2", "kill"]);
    try {
      const queue = await agent.get(`/console?workspace=${healthy.workspaceId}`);
      expect(queue.status).toBe(200);
      // The switcher still offers the away workspace, by its id: its name is on the node that is away.
      expect(queue.text).toContain(`value="${away.workspaceId}"`);
      expect(queue.text).toContain(`>${healthyName}</option>`);
      expect(queue.text).not.toContain(`>${awayName}</option>`);
      const refused = await agent.get(`/console?workspace=${away.workspaceId}`);
      expect(refused.status).toBe(503);
      expect(refused.text).toContain("Not available right now");
    } finally {
      execFileSync(TOOL, ["node", dir, "worker2", "start"]);
    }
    // Known to be back (its workspaces' API requests are no longer refused), and its console page served.
    await waitFor(async () => (await briefing(away)).status === 200, { what: "the dead worker's workspace to be served again", everyMs: 100 });
    await agent.get(`/console?workspace=${away.workspaceId}`).expect(200);
  });
});
