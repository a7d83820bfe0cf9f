import request from "supertest";
import { pushArtifact, validatedArtifact } from "../support/artifacts";
import { createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let a: WorkspaceWithKey;
let b: WorkspaceWithKey;
let bValidated: string;
let bDraft: string;

beforeAll(async () => {
  t = await createTestApp();
  a = await createWorkspaceWithKey(t.services);
  b = await createWorkspaceWithKey(t.services);
  await validatedArtifact(t, a.auth, { summary: "Alpha workspace insight on churn" });
  bValidated = await validatedArtifact(t, b.auth, { summary: "Beta workspace insight on churn" });
  bDraft = await pushArtifact(t, b.auth, { summary: "Beta draft on churn" });
  await t.services.indexer.runOnce();
});
afterAll(() => t.close());

describe("isolation of the artifact endpoints between workspaces", () => {
  it("POST /api/v1/artifacts writes only into the key's workspace", async () => {
    const id = await pushArtifact(t, a.auth);
    const row = await t.database.prisma.artifact.findFirstOrThrow({ where: { id } });
    expect(row.workspaceId).toBe(a.workspaceId);
  });

  it("GET /api/v1/artifacts never returns the other workspace's artifacts", async () => {
    const res = await request(t.app).get("/api/v1/artifacts?query=churn%20insight").set(a.auth);
    const ids = res.body.results.map((r: { id: string }) => r.id);
    expect(ids).toHaveLength(1);
    expect(ids).not.toContain(bValidated);
  });

  it("GET /api/v1/artifacts/{id} answers 404 for the other workspace's validated artifact", async () => {
    expect((await request(t.app).get(`/api/v1/artifacts/${bValidated}`).set(a.auth)).status).toBe(404);
    expect((await request(t.app).get(`/api/v1/artifacts/${bValidated}`).set(b.auth)).status).toBe(200);
  });

  it("GET /api/v1/feedback never lists the other workspace's pushes, even with audience=workspace", async () => {
    const res = await request(t.app).get("/api/v1/feedback?audience=workspace&limit=100").set(a.auth);
    const ids = res.body.items.map((item: { artifactId: string }) => item.artifactId);
    expect(ids).not.toContain(bValidated);
    expect(ids).not.toContain(bDraft);
  });
});
