import request from "supertest";
import { OpenAiEmbeddings } from "../../src/embeddings/openai-embeddings";
import { minimalArtifact, validateArtifact } from "../support/artifacts";
import { createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { startOpenAiCompatibleServer } from "../support/openai-compatible-server";
import { createTestApp, type TestApp } from "../support/test-app";

let server: Awaited<ReturnType<typeof startOpenAiCompatibleServer>>;
let t: TestApp;
let ws: WorkspaceWithKey;

beforeAll(async () => {
  server = await startOpenAiCompatibleServer();
  t = await createTestApp({ embeddings: new OpenAiEmbeddings({ apiKey: "sk-test", baseURL: server.baseURL, maxRetries: 0, timeoutMs: 2000 }) });
  ws = await createWorkspaceWithKey(t.services);
});
afterAll(async () => {
  await t.close();
  await server.close();
});

const vectorOf = (artifactId: string) =>
  t.database.prisma.$queryRaw<Array<{ facet: string; model: string | null; has_vector: boolean }>>`
    SELECT facet::text, model, embedding IS NOT NULL AS has_vector FROM artifact_embeddings
    WHERE artifact_id = ${artifactId} ORDER BY facet`;

describe("a push while the embeddings provider is down", () => {
  it("is stored (201), found by full-text search meanwhile, and embedded once the provider is back", async () => {
    server.failNext(...Array(20).fill(503));
    const res = await request(t.app).post("/api/v1/artifacts").set(ws.auth).send(minimalArtifact({ summary: "Quokka conversion funnel collapsed" }));
    expect(res.status).toBe(201);
    const id = res.body.artifactId as string;
    await validateArtifact(t, id);

    await expect(t.services.indexer.runOnce()).rejects.toThrow();
    expect(await vectorOf(id)).toEqual([
      { facet: "body", model: null, has_vector: false },
      { facet: "headline", model: null, has_vector: false },
    ]);

    const found = await request(t.app).get("/api/v1/artifacts?query=quokka%20funnel").set(ws.auth);
    expect(found.status).toBe(200);
    expect(found.body.results.map((r: { id: string }) => r.id)).toEqual([id]);

    server.failNext(); // nothing more to fail: the provider is back
    while ((await t.services.indexer.runOnce().catch(() => -1)) !== 0) {
      /* drain the induced failures, then embed */
    }
    const model = "openai/text-embedding-3-small/512";
    expect(await vectorOf(id)).toEqual([
      { facet: "body", model, has_vector: true },
      { facet: "headline", model, has_vector: true },
    ]);
  });

  it("does not wait for the provider: the push answers while the provider hangs", async () => {
    server.failNext("hang");
    const started = Date.now();
    const res = await request(t.app).post("/api/v1/artifacts").set(ws.auth).send(minimalArtifact());
    expect(res.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
