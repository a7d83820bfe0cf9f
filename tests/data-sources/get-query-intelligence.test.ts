import request from "supertest";
import { createWorkspaceWithKey, importContent, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let ws: WorkspaceWithKey;

const source = (name: string, patterns: Array<{ question: string; sql: string }> = [], learnings: string[] = []) => ({
  name,
  connectorType: "postgres" as const,
  status: "connected" as const,
  queryPatterns: patterns.map((pattern, i) => ({ ...pattern, successCount: i })),
  errorLearnings: learnings.map((learning) => ({ failedSql: "SELECT 1", errorMessage: "ERROR", learning })),
});

beforeAll(async () => {
  t = await createTestApp();
  ws = await createWorkspaceWithKey(t.services);
  await importContent(t.services, ws.workspaceId, {
    dataSources: [
      {
        ...source("warehouse"),
        queryPatterns: [
          {
            question: "Monthly churn by plan",
            sql: "SELECT plan_name, count(*) FROM churned GROUP BY 1",
            resultSummary: "One row per plan.",
            successCount: 41,
            lastUsedAt: "2025-09-30T16:20:00Z",
          },
          { question: "Weekly active users", sql: "SELECT week, count(DISTINCT user_id) FROM events GROUP BY 1", successCount: 3 },
        ],
        errorLearnings: [
          {
            failedSql: "SELECT plan FROM accounts",
            errorMessage: 'ERROR: column "plan" does not exist',
            learning: "The plan column is called plan_name.",
            createdAt: "2025-05-02T10:00:00Z",
          },
          { failedSql: "SELECT a / b FROM t", errorMessage: "ERROR: division by zero", learning: "Divide with NULLIF(b, 0)." },
        ],
      },
      source("finance lake", [{ question: "Booked ARR by fiscal quarter", sql: "SELECT 1" }]),
      source("sales/us", [{ question: "Pipeline by stage", sql: "SELECT 2" }]),
      source("données clients", [{ question: "Clients par région", sql: "SELECT 3" }]),
      source("many", Array.from({ length: 12 }, (_, i) => ({ question: `Churn question ${i}`, sql: `SELECT ${i}` })), Array.from({ length: 12 }, (_, i) => `Churn learning ${i}`)),
    ],
  });
  await t.services.indexer.runOnce();
});
afterAll(() => t.close());

const ask = (encodedName: string, question: string, who: WorkspaceWithKey = ws) =>
  request(t.app).get(`/api/v1/data-sources/${encodedName}/query-intelligence`).query({ question }).set(who.auth);

describe("GET /api/v1/data-sources/{name}/query-intelligence", () => {
  it("answers QueryPattern and ErrorLearning exactly, the relevant ones first", async () => {
    const res = await ask("warehouse", "churn per plan each month");
    expect(res.status).toBe(200);
    expect(res.body.patterns[0]).toEqual({
      question: "Monthly churn by plan",
      sql: "SELECT plan_name, count(*) FROM churned GROUP BY 1",
      resultSummary: "One row per plan.",
      successCount: 41,
      lastUsedAt: Date.parse("2025-09-30T16:20:00Z"),
    });
    expect(res.body.errorLearnings[0]).toEqual({
      failedSql: "SELECT plan FROM accounts",
      errorMessage: 'ERROR: column "plan" does not exist',
      learning: "The plan column is called plan_name.",
      createdAt: Date.parse("2025-05-02T10:00:00Z"),
    });
  });

  it("omits resultSummary and lastUsedAt when the pattern has none", async () => {
    const res = await ask("warehouse", "weekly active users");
    expect(res.body.patterns[0]).toEqual({
      question: "Weekly active users",
      sql: "SELECT week, count(DISTINCT user_id) FROM events GROUP BY 1",
      successCount: 3,
    });
  });

  it("ranks the learning that matches the question first", async () => {
    const res = await ask("warehouse", "division by zero");
    expect(res.body.errorLearnings[0].learning).toBe("Divide with NULLIF(b, 0).");
  });

  it("leaves out patterns and learnings unrelated to the question", async () => {
    const res = await ask("warehouse", "best pizza in town");
    expect(res.body).toEqual({ patterns: [], errorLearnings: [] });
  });

  it("returns at most 10 patterns and 10 learnings", async () => {
    const res = await ask("many", "churn");
    expect(res.body.patterns).toHaveLength(10);
    expect(res.body.errorLearnings).toHaveLength(10);
  });

  it("decodes a name with a space", async () => {
    const res = await ask("finance%20lake", "booked ARR");
    expect(res.status).toBe(200);
    expect(res.body.patterns.map((p: { question: string }) => p.question)).toEqual(["Booked ARR by fiscal quarter"]);
  });

  it("decodes a name with a slash", async () => {
    const res = await ask("sales%2Fus", "pipeline stage");
    expect(res.status).toBe(200);
    expect(res.body.patterns.map((p: { question: string }) => p.question)).toEqual(["Pipeline by stage"]);
  });

  it("decodes a unicode name", async () => {
    const res = await ask(encodeURIComponent("données clients"), "clients par région");
    expect(res.status).toBe(200);
    expect(res.body.patterns.map((p: { question: string }) => p.question)).toEqual(["Clients par région"]);
  });

  it("answers by words alone when the embeddings provider fails", async () => {
    jest.spyOn(t.services.embeddings, "embedQuery").mockRejectedValueOnce(new Error("provider down"));
    const res = await ask("warehouse", "monthly churn");
    expect(res.status).toBe(200);
    expect(res.body.patterns[0].question).toBe("Monthly churn by plan");
  });

  it("answers 404 for an unknown data source", async () => {
    const res = await ask("nowhere", "churn");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'No data source named "nowhere" in this workspace', code: "not_found" });
  });

  it("answers 400 without a question", async () => {
    const res = await request(t.app).get("/api/v1/data-sources/warehouse/query-intelligence").set(ws.auth);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("query parameter question: is required");
  });

  it("answers 400 for an empty question", async () => {
    const res = await ask("warehouse", "");
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("query parameter question: must not be empty");
  });

  it("answers 400 before 404: a missing question on an unknown source is 400", async () => {
    const res = await request(t.app).get("/api/v1/data-sources/nowhere/query-intelligence").set(ws.auth);
    expect(res.status).toBe(400);
  });

  it("never shows another workspace's source, or its patterns under the same name", async () => {
    const b = await createWorkspaceWithKey(t.services);
    await importContent(t.services, b.workspaceId, {
      dataSources: [source("warehouse", [{ question: "Monthly churn in workspace B", sql: "SELECT 'b'" }]), source("only-in-b")],
    });
    expect((await ask("only-in-b", "churn")).status).toBe(404);
    const fromA = (await ask("warehouse", "monthly churn")).body.patterns.map((p: { question: string }) => p.question);
    expect(fromA).not.toContain("Monthly churn in workspace B");
    const fromB = (await ask("warehouse", "monthly churn", b)).body.patterns.map((p: { question: string }) => p.question);
    expect(fromB).toEqual(["Monthly churn in workspace B"]);
  });
});
