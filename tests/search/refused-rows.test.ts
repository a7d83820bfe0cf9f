import request from "supertest";
import { OpenAiEmbeddings } from "../../src/embeddings/openai-embeddings";
import { pushArtifact, validatedArtifact } from "../support/artifacts";
import { adminAuth, createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { startOpenAiCompatibleServer } from "../support/openai-compatible-server";
import { createTestApp, type TestApp } from "../support/test-app";

let server: Awaited<ReturnType<typeof startOpenAiCompatibleServer>>;
let t: TestApp;

beforeAll(async () => {
  server = await startOpenAiCompatibleServer();
  t = await createTestApp({
    embeddings: new OpenAiEmbeddings({ apiKey: "sk-test", baseURL: server.baseURL, maxRetries: 0, timeoutMs: 2000, queryTimeoutMs: 300 }),
  });
});
afterAll(async () => {
  await t.close();
  await server.close();
});
afterEach(() => server.refuseInputs(() => false));

const indexState = (workspaceId: string) => request(t.app).get(`/admin/v1/workspaces/${workspaceId}/index`).set(adminAuth(t.adminToken));

/** A workspace with one artifact the provider refuses (its summary) and one it takes. */
async function workspaceWithRefusedRow(): Promise<{ ws: WorkspaceWithKey; refused: string; accepted: string }> {
  const ws = await createWorkspaceWithKey(t.services);
  const refused = await validatedArtifact(t, ws.auth, { summary: "UNREADABLE quarterly export" });
  const accepted = await validatedArtifact(t, ws.auth, { summary: "Churn fell in Q3" });
  server.refuseInputs((text) => text.includes("UNREADABLE"));
  return { ws, refused, accepted };
}

describe("rows the embeddings provider refuses", () => {
  it("are retried alone, so the rows of the same batch the provider accepts get their vectors", async () => {
    const { ws } = await workspaceWithRefusedRow();
    await t.services.indexer.runOnce(ws.workspaceId);
    const res = await indexState(ws.workspaceId);
    // Refused: the refused artifact's two facets and its memory; the other artifact is fully embedded.
    expect(res.body.tables.artifacts).toMatchObject({ embedded: 2, failed: 2, pending: 0 });
    expect(res.body.tables.memories).toMatchObject({ embedded: 1, failed: 1, pending: 0 });
  });

  it("are set aside as failed after 3 refusals, with the provider's error", async () => {
    const { ws, refused } = await workspaceWithRefusedRow();
    await t.services.indexer.runOnce(ws.workspaceId);
    const res = await indexState(ws.workspaceId);
    expect(res.status).toBe(200);
    expect(res.body.model).toBe("openai/text-embedding-3-small/512");
    expect(res.body.tables.artifacts.failures).toEqual(
      expect.arrayContaining([
        { id: `${refused}:headline`, attempts: 3, error: expect.stringContaining("maximum context length") },
        { id: `${refused}:body`, attempts: 3, error: expect.stringContaining("maximum context length") },
      ]),
    );
  });

  it("do not hold up other workspaces", async () => {
    const { ws } = await workspaceWithRefusedRow();
    const other = await createWorkspaceWithKey(t.services);
    await validatedArtifact(t, other.auth, { summary: "Signups doubled in APAC" });
    await t.services.indexer.runOnce();
    expect((await indexState(other.workspaceId)).body.tables.artifacts).toMatchObject({ embedded: 2, pending: 0, failed: 0 });
    expect((await indexState(ws.workspaceId)).body.tables.artifacts).toMatchObject({ embedded: 2, failed: 2 });
  });

  it("are retried by reindex once the provider takes them", async () => {
    const { ws } = await workspaceWithRefusedRow();
    await t.services.indexer.runOnce(ws.workspaceId);
    server.refuseInputs(() => false);
    const reindex = await request(t.app).post(`/admin/v1/workspaces/${ws.workspaceId}/reindex`).set(adminAuth(t.adminToken));
    expect(reindex.status).toBe(200);
    const res = await indexState(ws.workspaceId);
    expect(res.body.tables.artifacts).toMatchObject({ embedded: 4, failed: 0, pending: 0, failures: [] });
  });
});

describe("GET /admin/v1/workspaces/{id}/index", () => {
  it("counts vectors as pending before the indexer runs, and a draft's as none", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    await pushArtifact(t, ws.auth);
    expect((await indexState(ws.workspaceId)).body.tables.artifacts).toEqual({ pending: 0, failed: 0, embedded: 0, skipped: 0, unfindable: 0, failures: [] });
    await validatedArtifact(t, ws.auth);
    const res = await indexState(ws.workspaceId);
    expect(res.body.tables.artifacts).toEqual({ pending: 2, failed: 0, embedded: 0, skipped: 0, unfindable: 1, failures: [] });
  });

  it("answers 404 for an unknown workspace", async () => {
    const res = await indexState("ws_missing");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "Workspace ws_missing not found", code: "not_found" });
  });

  it("answers 401 without the admin token", async () => {
    const res = await request(t.app).get("/admin/v1/workspaces/ws_any/index");
    expect(res.status).toBe(401);
  });
});

describe("a query embedding over its budget", () => {
  it("lets search answer from its full-text half", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    const id = await pushArtifact(t, ws.auth, { summary: "Wombat retention improved" });
    await request(t.app).post(`/admin/v1/artifacts/${id}/validate`).set(adminAuth(t.adminToken)).send({ by: "ana" }).expect(200);
    server.failNext("hang");
    const started = Date.now();
    const res = await request(t.app).get("/api/v1/artifacts?query=wombat%20retention").set(ws.auth);
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { id: string }) => r.id)).toEqual([id]);
    expect(Date.now() - started).toBeLessThan(1_500);
  });
});
