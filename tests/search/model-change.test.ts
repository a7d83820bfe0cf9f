import request from "supertest";
import { buildApp } from "../../src/app";
import { OpenAiEmbeddings } from "../../src/embeddings/openai-embeddings";
import { systemClock } from "../../src/lib/clock";
import { createLogger } from "../../src/lib/logger";
import { FUSION } from "../../src/search/hybrid-fusion";
import { createServices } from "../../src/services";
import { validatedArtifact } from "../support/artifacts";
import { adminAuth, createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { startOpenAiCompatibleServer } from "../support/openai-compatible-server";
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from "../support/test-app";

let server: Awaited<ReturnType<typeof startOpenAiCompatibleServer>>;
let t: TestApp;
let ws: WorkspaceWithKey;
let artifactId: string;

/** The same database served with another embeddings model, as after changing EMBEDDINGS_PROVIDER. */
function withOpenAiModel() {
  const logger = createLogger("silent");
  const embeddings = new OpenAiEmbeddings({ apiKey: "sk-test", baseURL: server.baseURL, maxRetries: 0 });
  const services = createServices({ database: t.database, clock: systemClock, logger, embeddings });
  return { services, app: buildApp({ services, logger, adminToken: TEST_ADMIN_TOKEN }) };
}

const models = () =>
  t.database.prisma.$queryRaw<Array<{ model: string | null }>>`SELECT DISTINCT model FROM artifact_embeddings WHERE artifact_id = ${artifactId}`;

beforeAll(async () => {
  server = await startOpenAiCompatibleServer();
  t = await createTestApp();
  ws = await createWorkspaceWithKey(t.services);
  artifactId = await validatedArtifact(t, ws.auth, { summary: "Warehouse costs rose after the migration" });
  await t.services.indexer.runOnce();
});
afterAll(async () => {
  await t.close();
  await server.close();
});

describe("an embeddings model change", () => {
  it("never compares vectors of different models: the old vectors give no similarity, text still matches", async () => {
    const other = withOpenAiModel();
    const res = await request(other.app).get("/api/v1/artifacts?query=warehouse%20costs").set(ws.auth);
    expect(res.body.results.map((r: { id: string }) => r.id)).toEqual([artifactId]);
    // Only the text half can score: its weight × full coverage of the query's two headline words.
    expect(res.body.results[0].score).toBeCloseTo(FUSION.textWeight, 5);
  });

  it("treats vectors of another model as pending, so the indexer re-embeds them by itself", async () => {
    const other = withOpenAiModel();
    expect(await other.services.indexer.runOnce()).toBeGreaterThanOrEqual(2);
    expect(await models()).toEqual([{ model: "openai/text-embedding-3-small/512" }]);
  });

  it("POST /admin/v1/workspaces/{id}/reindex re-embeds every vector of the workspace with the current model", async () => {
    const res = await request(t.app).post(`/admin/v1/workspaces/${ws.workspaceId}/reindex`).set(adminAuth(t.adminToken));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      cleared: { artifacts: 2, memories: 1, queryPatterns: 0, errorLearnings: 0 },
      embedded: 3,
      pending: false,
    });
    expect(await models()).toEqual([{ model: "local/universal-sentence-encoder-en/512" }]);
  });

  it("answers 202 with pending true when the provider fails during a reindex", async () => {
    const other = withOpenAiModel();
    // One failure for each of the provider's index lanes.
    server.failNext(...Array.from({ length: other.services.embeddings.indexLanes }, () => 503));
    const res = await request(other.app).post(`/admin/v1/workspaces/${ws.workspaceId}/reindex`).set(adminAuth(TEST_ADMIN_TOKEN));
    expect(res.status).toBe(202);
    expect(res.body.pending).toBe(true);
    expect(await models()).toEqual([{ model: null }]);
  });

  it("answers 404 for an unknown workspace", async () => {
    const res = await request(t.app).post("/admin/v1/workspaces/ws_missing/reindex").set(adminAuth(t.adminToken));
    expect(res.status).toBe(404);
  });
});
