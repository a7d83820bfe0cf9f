import { readFileSync } from "node:fs";
import path from "node:path";
import request from "supertest";
import { DEMO_DOCUMENT } from "../../src/bootstrap/demo-workspace";
import { MemoryTypeSchema } from "../../src/contracts/memories";
import { adminAuth, createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

const demo = JSON.parse(readFileSync(path.join(__dirname, "../..", DEMO_DOCUMENT), "utf8"));
let t: TestApp;
let ws: WorkspaceWithKey;
let imported: request.Response;

beforeAll(async () => {
  t = await createTestApp();
  ws = await createWorkspaceWithKey(t.services, { workspaceName: "Demo" });
  imported = await request(t.app).post(`/admin/v1/workspaces/${ws.workspaceId}/import`).set(adminAuth(t.adminToken)).send(demo);
  await t.services.indexer.runOnce();
});
afterAll(() => t.close());

const get = (url: string) => request(t.app).get(url).set(ws.auth);

describe("the demo workspace document", () => {
  it("imports cleanly", () => {
    expect(imported.status).toBe(200);
    expect(imported.body.imported).toMatchObject({ context: 1, directives: 4, dataSources: 3, skills: 3, artifacts: 4 });
  });

  it("has what a realistic workspace needs: 3+ directives, 20+ memories of every type, 3 connector types with schemas, annotations, gotchas, patterns and learnings", () => {
    expect(demo.context).toEqual(expect.any(String));
    expect(demo.directives.length).toBeGreaterThanOrEqual(3);
    expect(demo.memories.length).toBeGreaterThanOrEqual(20);
    expect(new Set(demo.memories.map((m: { type: string }) => m.type))).toEqual(new Set(MemoryTypeSchema.options));
    expect(new Set(demo.dataSources.map((d: { connectorType: string }) => d.connectorType)).size).toBe(3);
    for (const source of demo.dataSources) {
      expect(source.schema.length).toBeGreaterThan(0);
      expect(source.tableAnnotations.some((a: { gotchas: string[] }) => a.gotchas.length > 0)).toBe(true);
      expect(source.queryPatterns.length).toBeGreaterThan(0);
      expect(source.errorLearnings.length).toBeGreaterThan(0);
    }
  });

  it("answers the briefing with the demo's context, directives, rules and definitions", async () => {
    const res = await get("/api/v1/briefing");
    expect(res.body.workspace).toEqual({ name: "Demo", context: demo.context });
    expect(res.body.directives).toHaveLength(4);
    expect(res.body.directivesAvailable).toBe(true);
    expect(res.body.memories.length).toBeGreaterThanOrEqual(10);
    expect(new Set(res.body.memories.map((m: { type: string }) => m.type))).toEqual(new Set(["rule", "definition"]));
  });

  it("recalls the churn definition for a question about churn", async () => {
    const res = await get("/api/v1/memories?query=how%20do%20we%20define%20a%20churned%20account");
    expect(res.body.hits[0]).toMatchObject({ type: "definition", statement: expect.stringMatching(/^A churned account/), context: expect.stringMatching(/^matched: /) });
  });

  it("lists three data sources of different connector types", async () => {
    const res = await get("/api/v1/data-sources");
    expect(res.body.items.map((item: { name: string; connectorType: string }) => [item.name, item.connectorType])).toEqual([
      ["events", "clickhouse"],
      ["finance lake", "databricks"],
      ["warehouse", "postgres"],
    ]);
  });

  it("answers query intelligence for the finance lake", async () => {
    const res = await get("/api/v1/data-sources/finance%20lake/query-intelligence?question=ARR%20by%20fiscal%20quarter");
    expect(res.body.patterns[0].question).toBe("Booked ARR by fiscal quarter");
    expect(res.body.errorLearnings.length).toBeGreaterThan(0);
  });

  it("lists the two enabled skills, each with a markdown file, a script and a binary", async () => {
    const res = await get("/api/v1/skills");
    expect(res.body.items.map((skill: { name: string }) => skill.name)).toEqual(["board-deck-metrics", "churn-analysis"]);
    for (const skill of res.body.items) {
      expect(new Set(skill.files.map((file: { kind: string }) => file.kind))).toEqual(new Set(["markdown", "script", "binary"]));
    }
  });

  it("serves a skill's binary through a download link", async () => {
    const res = await get("/api/v1/skills/churn-analysis/files?path=assets/retention-curve-example.png");
    const download = await request(t.app).get(new URL(res.body.url).pathname).buffer(true);
    expect(download.headers["content-type"]).toBe("image/png");
    expect((download.body as Buffer).subarray(1, 4).toString()).toBe("PNG");
    expect(download.body.length).toBe(res.body.size);
  });
});
