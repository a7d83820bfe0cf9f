import { Client } from "pg";
import request from "supertest";
import { createVectorIndexMaintenance } from "../../src/indexing/vector-index-maintenance";
import { createLogger } from "../../src/lib/logger";
import { exactDistanceOn } from "../../src/db/vector-distance";
import { nearestQuery } from "../../src/repositories/artifact-search.repository";
import { createReviewerRepository } from "../../src/repositories/reviewer.repository";
import { createVectorIndexRepository } from "../../src/repositories/vector-index.repository";
import { minimalArtifact, pushArtifact, validatedArtifact } from "../support/artifacts";
import { adminAuth, createWorkspaceWithKey, importContent, type WorkspaceWithKey } from "../support/factories";
import { ownIndexOnWorker } from "../support/citus-shards";
import { TEST_DATABASE_URL, clusterNodes } from "../support/postgres-server";
import { createTestApp, type TestApp } from "../support/test-app";
import { waitFor } from "../support/wait-for";

// On a Citus cluster, every statement the service sends for one workspace's request runs on the one
// node that holds the workspace: Citus plans it as a router query of a single task. Every statement
// a request sends is recorded at the driver and explained with its own parameters.

interface Sent {
  text: string;
  values: unknown[];
}

let sent: Sent[] | undefined;
const query = Client.prototype.query;

beforeAll(() => {
  // The recording sits in the driver the service's pool and Prisma's adapter use.
  Client.prototype.query = function record(this: Client, ...args: unknown[]) {
    const [config, values] = args as [string | { text?: string; values?: unknown[] }, unknown[] | undefined];
    const text = typeof config === "string" ? config : config?.text;
    if (sent && typeof text === "string") sent.push({ text, values: (typeof config === "string" ? values : config.values) ?? [] });
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof Client.prototype.query;
});

let t: TestApp;
let ws: WorkspaceWithKey;
let other: WorkspaceWithKey;
let artifactId: string;

beforeAll(async () => {
  t = await createTestApp();
  ws = await createWorkspaceWithKey(t.services);
  other = await createWorkspaceWithKey(t.services);
  for (const target of [ws, other]) {
    await importContent(t.services, target.workspaceId, {
      memories: [{ type: "definition", statement: "Churn is the share of accounts that cancel in a month" }],
      dataSources: [
        {
          name: "warehouse",
          connectorType: "postgres",
          status: "connected",
          queryPatterns: [{ question: "Monthly churn by plan", sql: "SELECT plan, count(*) FROM cancellations GROUP BY plan", successCount: 3 }],
          errorLearnings: [{ failedSql: "SELECT plan_name FROM cancellations", errorMessage: "column plan_name does not exist", learning: "The plan column is plan, not plan_name" }],
        },
      ],
    });
  }
  artifactId = await validatedArtifact(t, ws.auth, { summary: "Enterprise churn doubled in Q3", dataSources: [{ type: "database", name: "warehouse" }] });
  await validatedArtifact(t, other.auth, { summary: "Enterprise churn doubled in Q3" });
  await t.services.indexer.runOnce();
});
afterAll(async () => {
  Client.prototype.query = query;
  await t.close();
});

/** The statements a piece of work sent, each with Citus's plan of it. */
async function plansOf(work: () => Promise<unknown>): Promise<Array<{ text: string; plan: string }>> {
  const statements: Sent[] = [];
  sent = statements;
  try {
    await work();
  } finally {
    sent = undefined;
  }
  const plans: Array<{ text: string; plan: string }> = [];
  for (const statement of statements.filter((s) => /^\s*(WITH|SELECT|INSERT|UPDATE|DELETE)\b/i.test(s.text))) {
    const rows = await t.database.prisma.$queryRawUnsafe<Array<{ "QUERY PLAN": string }>>(`EXPLAIN ${statement.text}`, ...statement.values);
    plans.push({ text: statement.text, plan: rows.map((row) => row["QUERY PLAN"]).join("\n") });
  }
  return plans;
}

const coordinatorOf = async () => (await clusterNodes(TEST_DATABASE_URL!))![0]!;

/** The coordinator's URL of this file's database. */
async function databaseUrl(): Promise<string> {
  const [{ database }] = await t.database.prisma.$queryRaw<[{ database: string }]>`SELECT current_database() AS database`;
  const url = new URL(TEST_DATABASE_URL!);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Statements on distributed tables that Citus would send to more than one node: none may exist. */
function multiNode(plans: Array<{ text: string; plan: string }>) {
  return plans
    .filter(({ plan }) => plan.includes("Citus") && !/Task Count: 1\b/.test(plan))
    .map(({ text, plan }) => ({ text: text.slice(0, 300), plan: plan.split("\n").slice(0, 6).join("\n") }));
}

const distributedStatements = (plans: Array<{ plan: string }>) => plans.filter(({ plan }) => plan.includes("Citus")).length;

describe("one workspace's request runs on one node (Citus router plans)", () => {
  // Authentication finds a key by the digest of its secret before any workspace is known: through
  // api_key_digests, a reference table, then the key's row on its workspace's node. A node that is
  // down refuses only the keys of the workspaces it holds.
  it("authentication of a key this process has not seen yet", async () => {
    const fresh = await createWorkspaceWithKey(t.services);
    const plans = await plansOf(() => request(t.app).get("/api/v1/briefing").set(fresh.auth).expect(200));
    const digest = plans.find(({ text }) => text.includes('"api_key_digests"'));
    expect(digest?.plan).toMatch(/Task Count: 1\b/);
    const key = plans.find(({ text }) => /FROM "public"\."api_keys"/.test(text));
    expect(key?.plan).toMatch(/Task Count: 1\b/);
    expect(multiNode(plans)).toEqual([]);
  });

  // Every console page reads the reviewer's workspaces before any workspace is chosen: through
  // reviewer_workspaces, a reference table, then each workspace's name on its own node.
  it("the console's list of a reviewer's workspaces", async () => {
    const reviewer = await t.services.reviewers.add(ws.workspaceId, { email: "plans@acme.test", name: "Plans", password: "correct horse battery" });
    await t.services.reviewers.add(other.workspaceId, { email: "plans@acme.test", name: "Plans", password: "correct horse battery" });
    const plans = await plansOf(async () => expect((await createReviewerRepository(t.database.prisma).workspacesOf(reviewer.id)).map((w) => w.id).sort()).toEqual([ws.workspaceId, other.workspaceId].sort()));
    expect(plans.find(({ text }) => text.includes('"reviewer_workspaces"'))?.plan).toMatch(/Task Count: 1\b/);
    expect(plans.filter(({ text }) => /FROM "public"\."workspaces"/.test(text))).toHaveLength(2);
    expect(multiNode(plans)).toEqual([]);
  });

  it("search by meaning and words", async () => {
    const plans = await plansOf(() => request(t.app).get("/api/v1/artifacts").query({ query: "big clients cancelling more" }).set(ws.auth).expect(200));
    expect(distributedStatements(plans)).toBeGreaterThanOrEqual(2);
    expect(multiNode(plans)).toEqual([]);
  });

  it("filtered search", async () => {
    const plans = await plansOf(() =>
      request(t.app).get("/api/v1/artifacts").query({ query: "big clients cancelling more", dataSource: "warehouse", minConfidence: "0.5" }).set(ws.auth).expect(200),
    );
    expect(distributedStatements(plans)).toBeGreaterThanOrEqual(2);
    expect(multiNode(plans)).toEqual([]);
  });

  it("search through the workspace's own vector index", async () => {
    await createVectorIndexMaintenance({ vectorIndexes: createVectorIndexRepository(t.database.prisma), logger: createLogger("silent"), engine: t.database.kind, minVectors: 0 }).runOnce();
    // The other workspace, never searched yet: the service keeps what it found of a workspace's indexes for a minute.
    const plans = await plansOf(() => request(t.app).get("/api/v1/artifacts").query({ query: "big clients cancelling more" }).set(other.auth).expect(200));
    expect(plans.some(({ text }) => text.includes("nearest_in_workspace_index"))).toBe(true);
    expect(multiNode(plans)).toEqual([]);
    // The workspace's index was read on the worker that holds its shard: that shard's copy of the
    // index counts the scan (a worker reports its statistics within seconds of going idle).
    const url = await databaseUrl();
    const placed = await ownIndexOnWorker(url, other.workspaceId, "artifact_embeddings");
    expect(placed.node).not.toEqual(await coordinatorOf());
    await waitFor(async () => ((await ownIndexOnWorker(url, other.workspaceId, "artifact_embeddings")).index?.scans ?? 0) > 0, {
      what: "a scan of the workspace's own index on its worker",
    });
  });

  it("sends a call of a workspace's nearest-vector function on its own to the workspace's node", async () => {
    const own = (await createVectorIndexRepository(t.database.prisma).ownIndexes(other.workspaceId)).get("artifact_embeddings");
    expect(own).toBeDefined();
    const vector = (await t.services.embeddings.embed(["big clients cancelling more"]))[0]!;
    const statement = nearestQuery(other.workspaceId, { vector, model: t.services.embeddings.model }, { exactDistance: exactDistanceOn(t.database.kind), own });
    const plan = (await t.database.prisma.$queryRawUnsafe<Array<{ "QUERY PLAN": string }>>(`EXPLAIN ${statement.text}`, ...statement.values))
      .map((row) => row["QUERY PLAN"])
      .join("\n");
    // Run on the coordinator instead, its statement would reach the worker without the function's settings.
    expect(plan).toMatch(/Citus Adaptive[\s\S]*Task Count: 1\b/);
  });

  it("memory recall", async () => {
    const plans = await plansOf(() => request(t.app).get("/api/v1/memories").query({ query: "what does churn mean" }).set(ws.auth).expect(200));
    expect(distributedStatements(plans)).toBeGreaterThanOrEqual(2);
    expect(multiNode(plans)).toEqual([]);
  });

  it("query intelligence", async () => {
    const plans = await plansOf(() =>
      request(t.app).get("/api/v1/data-sources/warehouse/query-intelligence").query({ question: "churn by plan each month" }).set(ws.auth).expect(200),
    );
    expect(distributedStatements(plans)).toBeGreaterThanOrEqual(2);
    expect(multiNode(plans)).toEqual([]);
  });

  it("fetch", async () => {
    const plans = await plansOf(() => request(t.app).get(`/api/v1/artifacts/${artifactId}`).set(ws.auth).expect(200));
    expect(distributedStatements(plans)).toBeGreaterThanOrEqual(1);
    expect(multiNode(plans)).toEqual([]);
  });

  it("push", async () => {
    const plans = await plansOf(() => pushArtifact(t, ws.auth, { summary: "Mobile refunds rose in October" }));
    expect(distributedStatements(plans)).toBeGreaterThanOrEqual(1);
    expect(multiNode(plans)).toEqual([]);
  });

  it("push with an Idempotency-Key, and its retry", async () => {
    const push = () =>
      request(t.app).post("/api/v1/artifacts").set(ws.auth).set("Idempotency-Key", "router-plans").send(minimalArtifact({ summary: "Card refunds rose in May" })).expect(201);
    const plans = [...(await plansOf(push)), ...(await plansOf(push))];
    expect(distributedStatements(plans)).toBeGreaterThanOrEqual(3);
    expect(multiNode(plans)).toEqual([]);
  });

  it("validate", async () => {
    const draft = await pushArtifact(t, ws.auth, { summary: "Trial conversion fell in EMEA" });
    const plans = await plansOf(() =>
      request(t.app)
        .post(`/admin/v1/workspaces/${ws.workspaceId}/artifacts/${draft}/validate`)
        .set(adminAuth(t.adminToken))
        .send({ by: "ana@acme.test" })
        .expect(200),
    );
    expect(distributedStatements(plans)).toBeGreaterThanOrEqual(1);
    expect(multiNode(plans)).toEqual([]);
  });
});
