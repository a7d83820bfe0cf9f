import { readFileSync } from "node:fs";
import path from "node:path";
import request from "supertest";
import { DEMO_DOCUMENT } from "../../src/bootstrap/demo-workspace";
import { adminAuth, createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

const demo = JSON.parse(readFileSync(path.join(__dirname, "../..", DEMO_DOCUMENT), "utf8"));
let t: TestApp;
let ws: WorkspaceWithKey;

beforeAll(async () => {
  t = await createTestApp();
  ws = await createWorkspaceWithKey(t.services, { workspaceName: "Demo" });
  await request(t.app).post(`/admin/v1/workspaces/${ws.workspaceId}/import`).set(adminAuth(t.adminToken)).send(demo).expect(200);
  await t.services.indexer.runOnce();
});
afterAll(() => t.close());

/** What every ranked read of the demo workspace returns for `query`: artifacts, memories, and each source's query intelligence. */
async function everyRankedRead(query: string) {
  const q = encodeURIComponent(query);
  const get = (url: string) => request(t.app).get(url).set(ws.auth).expect(200);
  const artifacts = (await get(`/api/v1/artifacts?query=${q}`)).body.results as unknown[];
  const memories = (await get(`/api/v1/memories?query=${q}`)).body.hits as unknown[];
  const intelligence = [];
  for (const source of demo.dataSources as Array<{ name: string }>) {
    const body = (await get(`/api/v1/data-sources/${encodeURIComponent(source.name)}/query-intelligence?question=${q}`)).body;
    intelligence.push(...body.patterns, ...body.errorLearnings);
  }
  return { artifacts, memories, intelligence };
}

describe("a query that shares no word with the workspace and means nothing to it", () => {
  it.each(["$(python3)", "🦄", "🔥🔥🔥", "{{7*7}}"])("%s finds nothing, with a 200", async (query) => {
    expect(await everyRankedRead(query)).toEqual({ artifacts: [], memories: [], intelligence: [] });
  });

  it("leaves a query with a word of the workspace its matches", async () => {
    const found = await everyRankedRead("churn");
    expect(found.artifacts.length).toBeGreaterThan(0);
    expect(found.memories.length).toBeGreaterThan(0);
    expect(found.intelligence.length).toBeGreaterThan(0);
  });
});
