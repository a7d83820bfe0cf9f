import request from "supertest";
import type { z } from "zod";
import type { ImportDocumentSchema } from "../../src/contracts/import";
import { callTool, connectMcpClient, listen, textJson, type ListeningApp } from "../support/mcp-client";
import { consoleSession, createReviewer } from "../support/console";
import { adminAuth, createWorkspaceWithKey, importContent, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

// Deleting an artifact, a memory, a skill or a data source: 204, and gone at once from every
// reader (REST, MCP, the console) and from what search keeps beside the rows (vectors, body
// chunks, word statistics, memory-bank entries, stored bytes). An unknown id, or another
// workspace's, is 404 with the usual sentence and changes nothing.

let t: TestApp;
let ws: WorkspaceWithKey;
let other: WorkspaceWithKey;
let server: ListeningApp;

const admin = () => adminAuth(t.adminToken);
const del = (path: string) => request(t.app).delete(path).set(admin());
const sql = <T>(text: string, ...values: unknown[]) => t.database.prisma.$queryRawUnsafe<T[]>(text, ...values);

const SHARED_BYTES = Buffer.from("shared helper\n");

beforeAll(async () => {
  t = await createTestApp();
  ws = await createWorkspaceWithKey(t.services, { keyName: "agent" });
  other = await createWorkspaceWithKey(t.services);
  const content: z.input<typeof ImportDocumentSchema> = {
    memories: [
      { type: "definition", statement: "Zephyr churn means an account cancelled within thirty days of signing" },
      { type: "rule", statement: "Always exclude sandbox tenants from quasar metrics" },
    ],
    dataSources: [
      {
        name: "finance lake",
        connectorType: "databricks",
        status: "connected",
        queryPatterns: [{ question: "Booked ARR by fiscal quarter", sql: "SELECT 1", successCount: 3 }],
        errorLearnings: [{ failedSql: "SELECT quarter FROM arr", errorMessage: "no column quarter", learning: "Use fiscal_quarter" }],
      },
    ],
    skills: [
      { name: "churn-kit", description: "Churn", source: "authored", files: [{ path: "SKILL.md", content: "# Churn kit" }, { path: "lib/helper.txt", content: SHARED_BYTES.toString() }, { path: "chart.bin", contentBase64: Buffer.from([0xff, 0x00, 0x42]).toString("base64") }] },
      { name: "other-kit", description: "Other", source: "authored", files: [{ path: "SKILL.md", content: "# Other kit" }, { path: "helper.txt", content: SHARED_BYTES.toString() }] },
    ],
    artifacts: [
      { summary: "Pelican retention collapsed in the northern region", why: "Renewals at risk", confidence: 0.8, confidenceExplanation: "CRM", content: `## Pelican\n${"Northern pelican renewals slipped week after week. ".repeat(60)}` },
      { summary: "Walrus upsell grew", why: "Expansion", confidence: 0.7, confidenceExplanation: "Billing" },
    ],
  };
  await importContent(t.services, ws.workspaceId, content);
  await importContent(t.services, other.workspaceId, content);
  await t.services.indexer.runOnce();
  server = await listen(t.app);
});
afterAll(async () => {
  await server.close();
  await t.close();
});

async function artifactIdOf(workspace: WorkspaceWithKey, summary: string): Promise<string> {
  const [row] = await sql<{ id: string }>(`SELECT id FROM artifacts WHERE workspace_id = $1 AND summary = $2`, workspace.workspaceId, summary);
  return row!.id;
}

const termCount = async (workspaceId: string, collection: string, lexeme: string) =>
  (await sql<{ documents: number }>(`SELECT documents FROM search_term_counts WHERE workspace_id = $1 AND collection = $2 AND lexeme = $3`, workspaceId, collection, lexeme))[0]?.documents ?? 0;

describe("DELETE /admin/v1/workspaces/{workspaceId}/artifacts/{artifactId}", () => {
  it("deletes a validated artifact with its vectors, body chunks, memory-bank entry and word counts; search, fetch, recall, MCP and the console no longer find it", async () => {
    const id = await artifactIdOf(ws, "Pelican retention collapsed in the northern region");
    const search = () => request(t.app).get("/api/v1/artifacts?query=pelican%20retention").set(ws.auth);
    expect((await search()).body.results.map((r: { id: string }) => r.id)).toContain(id);
    expect(Number((await sql<{ n: bigint }>(`SELECT count(*) AS n FROM artifact_embeddings WHERE workspace_id = $1 AND artifact_id = $2 AND part > 0`, ws.workspaceId, id))[0]!.n)).toBeGreaterThan(0);
    const documentsBefore = await termCount(ws.workspaceId, "artifacts", "");
    const pelicanBefore = await termCount(ws.workspaceId, "artifacts", "pelican");
    const reviewer = await createReviewer(t, ws.workspaceId);
    const { agent } = await consoleSession(t, reviewer.email, reviewer.password);
    await agent.get(`/console/artifacts/${id}`).expect(200);

    const res = await del(`/admin/v1/workspaces/${ws.workspaceId}/artifacts/${id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");

    expect((await search()).body.results.map((r: { id: string }) => r.id)).not.toContain(id);
    await request(t.app).get(`/api/v1/artifacts/${id}`).set(ws.auth).expect(404);
    const recall = await request(t.app).get("/api/v1/memories?query=pelican%20retention%20collapsed").set(ws.auth).expect(200);
    expect(recall.body.hits.map((h: { statement: string }) => h.statement)).not.toContain("Pelican retention collapsed in the northern region");
    expect(await sql(`SELECT id FROM artifact_embeddings WHERE workspace_id = $1 AND artifact_id = $2`, ws.workspaceId, id)).toEqual([]);
    expect(await sql(`SELECT id FROM memories WHERE workspace_id = $1 AND artifact_id = $2`, ws.workspaceId, id)).toEqual([]);
    expect(await termCount(ws.workspaceId, "artifacts", "")).toBe(documentsBefore - 1);
    expect(await termCount(ws.workspaceId, "artifacts", "pelican")).toBe(pelicanBefore - 1);
    await agent.get(`/console/artifacts/${id}`).expect(404);
    const client = await connectMcpClient(server.baseUrl, ws.key);
    try {
      const fetched = await callTool(client, "fetch", { id });
      expect(fetched.isError).toBe(true);
      const found = textJson(await callTool(client, "search", { query: "pelican retention" })) as { results: Array<{ id: string }> };
      expect(found.results.map((r) => r.id)).not.toContain(id);
    } finally {
      await client.close();
    }
    // The other workspace's copy is untouched.
    const kept = await artifactIdOf(other, "Pelican retention collapsed in the northern region");
    await request(t.app).get(`/api/v1/artifacts/${kept}`).set(other.auth).expect(200);
  });

  it("deletes a pushed draft, which leaves feedback at once", async () => {
    const pushed = await request(t.app)
      .post("/api/v1/artifacts")
      .set(ws.auth)
      .send({ summary: "Draft to delete", why: "Testing", confidence: 0.5, confidenceExplanation: "None" })
      .expect(201);
    const feedback = () => request(t.app).get("/api/v1/feedback").set(ws.auth);
    expect((await feedback()).body.items.map((i: { artifactId: string }) => i.artifactId)).toContain(pushed.body.artifactId);
    await del(`/admin/v1/workspaces/${ws.workspaceId}/artifacts/${pushed.body.artifactId}`).expect(204);
    expect((await feedback()).body.items.map((i: { artifactId: string }) => i.artifactId)).not.toContain(pushed.body.artifactId);
  });

  it("answers 404 with the unknown-id sentence for an unknown id and for another workspace's, changing nothing", async () => {
    const foreign = await artifactIdOf(other, "Walrus upsell grew");
    for (const id of ["art_unknown", foreign]) {
      const res = await del(`/admin/v1/workspaces/${ws.workspaceId}/artifacts/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: `Artifact ${id} not found`, code: "not_found" });
    }
    await request(t.app).get(`/api/v1/artifacts/${foreign}`).set(other.auth).expect(200);
    expect((await del(`/admin/v1/workspaces/ws_unknown/artifacts/${foreign}`)).body).toEqual({ error: "Workspace ws_unknown not found", code: "not_found" });
  });
});

describe("DELETE /admin/v1/workspaces/{workspaceId}/memories/{memoryId}", () => {
  it("deletes a ledger memory: recall and the briefing no longer show it, and its words leave the statistics", async () => {
    const recall = () => request(t.app).get("/api/v1/memories?query=zephyr%20churn").set(ws.auth);
    const hit = (await recall()).body.hits.find((h: { statement: string }) => h.statement.startsWith("Zephyr churn"));
    expect(hit).toBeDefined();
    const before = await termCount(ws.workspaceId, "memories", "zephyr");
    await del(`/admin/v1/workspaces/${ws.workspaceId}/memories/${hit.memoryId}`).expect(204);
    expect((await recall()).body.hits.map((h: { memoryId: string }) => h.memoryId)).not.toContain(hit.memoryId);
    const briefing = await request(t.app).get("/api/v1/briefing").set(ws.auth).expect(200);
    expect(briefing.body.memories.map((m: { statement: string }) => m.statement)).not.toContain(hit.statement);
    expect(await termCount(ws.workspaceId, "memories", "zephyr")).toBe(before - 1);
  });

  it("refuses an artifact's memory-bank entry with 409 naming the artifact, and deletes nothing", async () => {
    const artifactId = await artifactIdOf(ws, "Walrus upsell grew");
    const [memory] = await sql<{ id: string }>(`SELECT id FROM memories WHERE workspace_id = $1 AND artifact_id = $2`, ws.workspaceId, artifactId);
    const res = await del(`/admin/v1/workspaces/${ws.workspaceId}/memories/${memory!.id}`);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(`Memory ${memory!.id} is the memory-bank entry of artifact ${artifactId}; delete the artifact instead`);
    expect(await sql(`SELECT id FROM memories WHERE workspace_id = $1 AND id = $2`, ws.workspaceId, memory!.id)).toHaveLength(1);
  });

  it("answers 404 for an unknown memory and for another workspace's", async () => {
    const [foreign] = await sql<{ id: string }>(`SELECT id FROM memories WHERE workspace_id = $1 AND artifact_id IS NULL LIMIT 1`, other.workspaceId);
    for (const id of ["mem_unknown", foreign!.id]) {
      expect((await del(`/admin/v1/workspaces/${ws.workspaceId}/memories/${id}`)).body).toEqual({ error: `Memory ${id} not found`, code: "not_found" });
    }
    expect(await sql(`SELECT id FROM memories WHERE workspace_id = $1 AND id = $2`, other.workspaceId, foreign!.id)).toHaveLength(1);
  });
});

describe("DELETE /admin/v1/workspaces/{workspaceId}/skills/{name}", () => {
  it("deletes the skill, its files and the blobs no other skill shares; signed links already given stop working", async () => {
    const [{ key: binaryKey }] = (await sql<{ key: string }>(
      `SELECT storage_key AS key FROM skill_files f JOIN skills s ON s.workspace_id = f.workspace_id AND s.id = f.skill_id WHERE s.workspace_id = $1 AND s.name = 'churn-kit' AND f.path = 'chart.bin'`,
      ws.workspaceId,
    )) as [{ key: string }];
    const link = await request(t.app).get("/api/v1/skills/churn-kit/files?path=chart.bin").set(ws.auth).expect(200);
    await request(t.app).get(new URL(link.body.url).pathname).expect(200);

    await del(`/admin/v1/workspaces/${ws.workspaceId}/skills/churn-kit`).expect(204);

    const list = await request(t.app).get("/api/v1/skills").set(ws.auth).expect(200);
    expect(list.body.items.map((s: { name: string }) => s.name)).toEqual(["other-kit"]);
    await request(t.app).get("/api/v1/skills/churn-kit/files?path=SKILL.md").set(ws.auth).expect(404);
    await request(t.app).get(new URL(link.body.url).pathname).expect(404);
    expect(await sql(`SELECT key FROM stored_blobs WHERE key = $1`, binaryKey)).toEqual([]);
    // The helper's bytes are the other skill's too: they stay, and it still serves them.
    const shared = await request(t.app).get("/api/v1/skills/other-kit/files?path=helper.txt").set(ws.auth).expect(200);
    expect(shared.body.content).toBe(SHARED_BYTES.toString());
    await request(t.app).get("/api/v1/skills/churn-kit/files?path=SKILL.md").set(other.auth).expect(200);
  });

  it("answers 404 naming the skill when the workspace has none of that name", async () => {
    expect((await del(`/admin/v1/workspaces/${ws.workspaceId}/skills/no-such-kit`)).body).toEqual({ error: 'No skill named "no-such-kit" in this workspace', code: "not_found" });
  });
});

describe("DELETE /admin/v1/workspaces/{workspaceId}/data-sources/{name}", () => {
  it("deletes the source with its patterns and learnings (a name with a space, URL-encoded)", async () => {
    const [{ id }] = (await sql<{ id: string }>(`SELECT id FROM data_sources WHERE workspace_id = $1 AND name = 'finance lake'`, ws.workspaceId)) as [{ id: string }];
    await del(`/admin/v1/workspaces/${ws.workspaceId}/data-sources/finance%20lake`).expect(204);
    expect((await request(t.app).get("/api/v1/data-sources").set(ws.auth)).body.items).toEqual([]);
    const res = await request(t.app).get("/api/v1/data-sources/finance%20lake/query-intelligence?question=arr").set(ws.auth);
    expect(res.status).toBe(404);
    expect(await sql(`SELECT id FROM query_patterns WHERE workspace_id = $1 AND data_source_id = $2 UNION ALL SELECT id FROM error_learnings WHERE workspace_id = $1 AND data_source_id = $2`, ws.workspaceId, id)).toEqual([]);
    expect(await termCount(ws.workspaceId, `query_patterns:${id}`, "")).toBe(0);
    expect((await request(t.app).get("/api/v1/data-sources").set(other.auth)).body.items).toHaveLength(1);
  });

  it("answers 404 naming the source, and 401 without the admin token", async () => {
    expect((await del(`/admin/v1/workspaces/${ws.workspaceId}/data-sources/nowhere`)).body).toEqual({ error: 'No data source named "nowhere" in this workspace', code: "not_found" });
    await request(t.app).delete(`/admin/v1/workspaces/${ws.workspaceId}/data-sources/nowhere`).expect(401);
  });
});

describe("deleting from the review console's artifact page", () => {
  const csrfOf = (page: string) => /id="delete-form"[^>]*>\s*<input type="hidden" name="_csrf" value="([^"]+)"/.exec(page)?.[1] ?? "";

  it("offers a confirmed, token-bearing delete form; deleting returns to the queue with a notice, and the artifact is gone", async () => {
    const pushed = await request(t.app).post("/api/v1/artifacts").set(ws.auth).send({ summary: "Console draft to delete", why: "Testing", confidence: 0.5, confidenceExplanation: "None" }).expect(201);
    const id = pushed.body.artifactId as string;
    const reviewer = await createReviewer(t, ws.workspaceId);
    const { agent } = await consoleSession(t, reviewer.email, reviewer.password);
    const page = await agent.get(`/console/artifacts/${id}`).expect(200);
    expect(page.text).toMatch(new RegExp(`<form method="post" action="/console/artifacts/${id}/delete" id="delete-form" data-confirm="Delete “Console draft to delete” for good\\? It cannot be undone.">`));
    // Without the anti-forgery token: refused, and nothing deleted.
    await agent.post(`/console/artifacts/${id}/delete`).type("form").send({}).expect(403);
    await agent.get(`/console/artifacts/${id}`).expect(200);

    const res = await agent.post(`/console/artifacts/${id}/delete`).type("form").send({ _csrf: csrfOf(page.text), queue: "status=draft" });
    expect(res.status).toBe(303);
    expect(res.headers.location).toMatch(/^\/console\?.*done=deleted/);
    const queue = await agent.get(String(res.headers.location)).expect(200);
    expect(queue.text).toContain("Artifact deleted");
    expect(queue.text).not.toContain("Console draft to delete");
    await agent.get(`/console/artifacts/${id}`).expect(404);
    expect(await sql(`SELECT id FROM artifacts WHERE id = $1`, id)).toEqual([]);
  });

  it("answers 404 for an artifact of a workspace the reviewer does not review, deleting nothing", async () => {
    const foreign = await artifactIdOf(other, "Walrus upsell grew");
    const reviewer = await createReviewer(t, ws.workspaceId);
    const { agent, csrf } = await consoleSession(t, reviewer.email, reviewer.password);
    await agent.post(`/console/artifacts/${foreign}/delete`).type("form").send({ _csrf: csrf }).expect(404);
    expect(await sql(`SELECT id FROM artifacts WHERE id = $1`, foreign)).toHaveLength(1);
  });
});
