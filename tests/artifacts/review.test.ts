import request from "supertest";
import { pushArtifact, validateArtifact, disputeArtifact } from "../support/artifacts";
import { adminAuth, createWorkspaceWithKey, importContent, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let ws: WorkspaceWithKey;
beforeAll(async () => {
  t = await createTestApp();
  ws = await createWorkspaceWithKey(t.services);
});
afterAll(() => t.close());

const admin = () => adminAuth(t.adminToken);
const memoryOf = (artifactId: string) => t.database.prisma.memory.findUniqueOrThrow({ where: { workspaceId_artifactId: { workspaceId: ws.workspaceId, artifactId } } });

describe("POST /admin/v1/artifacts/{id}/validate", () => {
  it("moves a draft to validated and answers 200 {artifactId, status}", async () => {
    const id = await pushArtifact(t, ws.auth);
    const res = await request(t.app).post(`/admin/v1/artifacts/${id}/validate`).set(admin()).send({ by: "ana@acme.test" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ artifactId: id, status: "validated" });
    const row = await t.database.prisma.artifact.findUniqueOrThrow({ where: { workspaceId_id: { workspaceId: ws.workspaceId, id } } });
    expect(row).toMatchObject({ status: "validated", validatedBy: "ana@acme.test" });
    expect(row.validatedAt).toBeInstanceOf(Date);
  });

  it.each(["validated", "disputed"])("answers 409 for an artifact that is already %s", async (state) => {
    const id = await pushArtifact(t, ws.auth);
    if (state === "validated") await validateArtifact(t, id);
    else await disputeArtifact(t, id);
    const res = await request(t.app).post(`/admin/v1/artifacts/${id}/validate`).set(admin()).send({ by: "bo" });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(`Artifact ${id} is ${state}; only a draft can be validated or disputed`);
  });

  it("answers 404 for an unknown artifact", async () => {
    const res = await request(t.app).post("/admin/v1/artifacts/art_missing/validate").set(admin()).send({ by: "bo" });
    expect(res.status).toBe(404);
  });

  it("answers 400 without by", async () => {
    const id = await pushArtifact(t, ws.auth);
    const res = await request(t.app).post(`/admin/v1/artifacts/${id}/validate`).set(admin()).send({});
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("by: is required");
  });

  it("answers 401 without the admin token", async () => {
    const id = await pushArtifact(t, ws.auth);
    const res = await request(t.app).post(`/admin/v1/artifacts/${id}/validate`).send({ by: "bo" });
    expect(res.status).toBe(401);
  });
});

describe("POST /admin/v1/artifacts/{id}/dispute", () => {
  it("moves a draft to disputed with its reason", async () => {
    const id = await pushArtifact(t, ws.auth);
    const res = await request(t.app).post(`/admin/v1/artifacts/${id}/dispute`).set(admin()).send({ by: "bo", reason: "Counts test accounts" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ artifactId: id, status: "disputed" });
    const row = await t.database.prisma.artifact.findUniqueOrThrow({ where: { workspaceId_id: { workspaceId: ws.workspaceId, id } } });
    expect(row).toMatchObject({ status: "disputed", disputeReason: "Counts test accounts", disputedBy: "bo" });
  });

  it.each([
    [{ by: "bo" }, "reason: is required"],
    [{ by: "bo", reason: "" }, "reason: must not be empty"],
    [{ reason: "x" }, "by: is required"],
  ])("answers 400 for %p", async (body, message) => {
    const id = await pushArtifact(t, ws.auth);
    const res = await request(t.app).post(`/admin/v1/artifacts/${id}/dispute`).set(admin()).send(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

  it("answers 409 for a validated artifact", async () => {
    const id = await pushArtifact(t, ws.auth);
    await validateArtifact(t, id);
    const res = await request(t.app).post(`/admin/v1/artifacts/${id}/dispute`).set(admin()).send({ by: "bo", reason: "late" });
    expect(res.status).toBe(409);
  });

  it("answers 404 for an unknown artifact", async () => {
    const res = await request(t.app).post("/admin/v1/artifacts/art_missing/dispute").set(admin()).send({ by: "bo", reason: "x" });
    expect(res.status).toBe(404);
  });
});

describe("memory bank retention", () => {
  const memoriesOf = (artifactId: string) => t.database.prisma.memory.findMany({ where: { workspaceId: ws.workspaceId, artifactId } });
  const vectorsOf = (artifactId: string) => t.database.prisma.artifactEmbedding.findMany({ where: { workspaceId: ws.workspaceId, artifactId } });

  it("gives a draft no memory-bank entry and no vector rows: nothing for the model to embed until a review validates it", async () => {
    const id = await pushArtifact(t, ws.auth, { summary: "APAC revenue grew 12%" });
    expect(await memoriesOf(id)).toEqual([]);
    expect(await vectorsOf(id)).toEqual([]);
  });

  it("retains a validated artifact as an active finding whose statement is the summary, with its pending vector rows", async () => {
    const id = await pushArtifact(t, ws.auth, { summary: "APAC revenue grew 12%" });
    await validateArtifact(t, id);
    expect(await memoryOf(id)).toMatchObject({ workspaceId: ws.workspaceId, type: "finding", statement: "APAC revenue grew 12%", active: true });
    expect((await vectorsOf(id)).map(({ facet, searchable, model }) => ({ facet, searchable, embedded: model !== null })).sort((a, b) => a.facet.localeCompare(b.facet))).toEqual([
      { facet: "body", searchable: true, embedded: false },
      { facet: "headline", searchable: true, embedded: false },
    ]);
  });

  it("gives a disputed artifact neither: it is never searched, so never embedded", async () => {
    const id = await pushArtifact(t, ws.auth);
    await disputeArtifact(t, id);
    expect(await memoriesOf(id)).toEqual([]);
    expect(await vectorsOf(id)).toEqual([]);
  });

  it("wakes the embedding indexer after a validation, which wrote rows to embed, and not after a push or a dispute, which wrote none", async () => {
    const wake = jest.spyOn(t.services.indexer, "wake");
    try {
      const disputed = await pushArtifact(t, ws.auth);
      const validated = await pushArtifact(t, ws.auth);
      await disputeArtifact(t, disputed);
      expect(wake).not.toHaveBeenCalled();
      await validateArtifact(t, validated);
      expect(wake).toHaveBeenCalledTimes(1);
    } finally {
      wake.mockRestore();
    }
  });
});

describe("GET /admin/v1/workspaces/{id}/artifacts", () => {
  it("lists the workspace's artifacts newest first", async () => {
    const own = await createWorkspaceWithKey(t.services);
    const first = await pushArtifact(t, own.auth, { summary: "first" });
    const second = await pushArtifact(t, own.auth, { summary: "second" });
    const res = await request(t.app).get(`/admin/v1/workspaces/${own.workspaceId}/artifacts`).set(admin());
    expect(res.status).toBe(200);
    expect(res.body.items.map((item: { id: string }) => item.id)).toEqual([second, first]);
    expect(res.body.items[0]).toEqual({
      id: second,
      status: "draft",
      trigger: "external",
      summary: "second",
      why: expect.any(String),
      confidence: 0.8,
      createdBy: expect.any(String),
      createdAt: expect.any(Number),
    });
  });

  it("filters by status", async () => {
    const own = await createWorkspaceWithKey(t.services);
    const drafted = await pushArtifact(t, own.auth);
    const validated = await pushArtifact(t, own.auth);
    await validateArtifact(t, validated);
    const res = await request(t.app).get(`/admin/v1/workspaces/${own.workspaceId}/artifacts?status=draft`).set(admin());
    expect(res.body.items.map((item: { id: string }) => item.id)).toEqual([drafted]);
  });

  it("answers 400 for an unknown status", async () => {
    const res = await request(t.app).get(`/admin/v1/workspaces/${ws.workspaceId}/artifacts?status=pending`).set(admin());
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("query parameter status: must be one of: draft, validated, disputed");
  });

  it("answers 404 for an unknown workspace", async () => {
    const res = await request(t.app).get("/admin/v1/workspaces/ws_missing/artifacts").set(admin());
    expect(res.status).toBe(404);
  });
});

describe("POST /admin/v1/workspaces/{workspaceId}/artifacts/{artifactId}/validate", () => {
  const validatePath = (workspaceId: string, id: string) => `/admin/v1/workspaces/${workspaceId}/artifacts/${id}/validate`;
  const statusOf = async (workspaceId: string, id: string) =>
    (await t.database.prisma.artifact.findUniqueOrThrow({ where: { workspaceId_id: { workspaceId, id } } })).status;

  it("moves a draft of the workspace to validated and answers 200 {artifactId, status}", async () => {
    const id = await pushArtifact(t, ws.auth);
    const res = await request(t.app).post(validatePath(ws.workspaceId, id)).set(admin()).send({ by: "ana@acme.test" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ artifactId: id, status: "validated" });
    expect(await statusOf(ws.workspaceId, id)).toBe("validated");
  });

  it("answers 404 for an artifact of another workspace, in the words of an unknown one, and leaves it a draft", async () => {
    const other = await createWorkspaceWithKey(t.services);
    const foreign = await pushArtifact(t, other.auth);
    const res = await request(t.app).post(validatePath(ws.workspaceId, foreign)).set(admin()).send({ by: "bo" });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: `Artifact ${foreign} not found`, code: "not_found" });
    expect(await statusOf(other.workspaceId, foreign)).toBe("draft");
  });

  it("answers 404 naming the workspace when it does not exist", async () => {
    const id = await pushArtifact(t, ws.auth);
    const res = await request(t.app).post(validatePath("ws_missing", id)).set(admin()).send({ by: "bo" });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("Workspace ws_missing not found");
    expect(await statusOf(ws.workspaceId, id)).toBe("draft");
  });

  it("answers 409 for an artifact that is no longer a draft", async () => {
    const id = await pushArtifact(t, ws.auth);
    await validateArtifact(t, id);
    const res = await request(t.app).post(validatePath(ws.workspaceId, id)).set(admin()).send({ by: "bo" });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(`Artifact ${id} is validated; only a draft can be validated or disputed`);
  });
});

describe("POST /admin/v1/workspaces/{workspaceId}/artifacts/{artifactId}/dispute", () => {
  const disputePath = (workspaceId: string, id: string) => `/admin/v1/workspaces/${workspaceId}/artifacts/${id}/dispute`;
  const rowOf = (workspaceId: string, id: string) => t.database.prisma.artifact.findUniqueOrThrow({ where: { workspaceId_id: { workspaceId, id } } });

  it("moves a draft of the workspace to disputed, keeping the reason without its surrounding blanks", async () => {
    const id = await pushArtifact(t, ws.auth);
    const res = await request(t.app).post(disputePath(ws.workspaceId, id)).set(admin()).send({ by: "bo", reason: "  Counts test accounts\n" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ artifactId: id, status: "disputed" });
    expect(await rowOf(ws.workspaceId, id)).toMatchObject({ status: "disputed", disputeReason: "Counts test accounts", disputedBy: "bo" });
  });

  it("answers 404 for an artifact of another workspace, in the words of an unknown one, and leaves it a draft", async () => {
    const other = await createWorkspaceWithKey(t.services);
    const foreign = await pushArtifact(t, other.auth);
    const res = await request(t.app).post(disputePath(ws.workspaceId, foreign)).set(admin()).send({ by: "bo", reason: "not ours" });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: `Artifact ${foreign} not found`, code: "not_found" });
    expect(await rowOf(other.workspaceId, foreign)).toMatchObject({ status: "draft", disputeReason: null });
  });
});

describe("the dispute reason, on both dispute paths", () => {
  const paths = [
    ["/admin/v1/workspaces/{workspaceId}/artifacts/{artifactId}/dispute", (id: string) => `/admin/v1/workspaces/${ws.workspaceId}/artifacts/${id}/dispute`],
    ["/admin/v1/artifacts/{id}/dispute", (id: string) => `/admin/v1/artifacts/${id}/dispute`],
  ] as const;

  it.each(paths)("%s answers 400 for a reason longer than 2,000 characters and leaves the draft a draft", async (_path, pathOf) => {
    const id = await pushArtifact(t, ws.auth);
    const res = await request(t.app).post(pathOf(id)).set(admin()).send({ by: "bo", reason: "x".repeat(2001) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "reason: must be at most 2000 characters", code: "bad_request" });
    expect((await t.database.prisma.artifact.findUniqueOrThrow({ where: { workspaceId_id: { workspaceId: ws.workspaceId, id } } })).status).toBe("draft");
  });

  it.each(paths)("%s accepts a reason of exactly 2,000 characters", async (_path, pathOf) => {
    const id = await pushArtifact(t, ws.auth);
    await request(t.app).post(pathOf(id)).set(admin()).send({ by: "bo", reason: "x".repeat(2000) }).expect(200);
  });

  it.each(paths)("%s answers 400 for a reason of blanks only", async (_path, pathOf) => {
    const id = await pushArtifact(t, ws.auth);
    const res = await request(t.app).post(pathOf(id)).set(admin()).send({ by: "bo", reason: " \n\t " });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("reason: must not be empty");
  });
});

describe("the review queue's limit", () => {
  const queueOf = (workspaceId: string, query = "") => request(t.app).get(`/admin/v1/workspaces/${workspaceId}/artifacts${query}`).set(admin());

  it("answers the newest `limit` artifacts, keeping the status filter", async () => {
    const own = await createWorkspaceWithKey(t.services);
    const first = await pushArtifact(t, own.auth, { summary: "first" });
    const second = await pushArtifact(t, own.auth, { summary: "second" });
    const validated = await pushArtifact(t, own.auth, { summary: "validated" });
    await validateArtifact(t, validated);
    const res = await queueOf(own.workspaceId, "?status=draft&limit=1");
    expect(res.status).toBe(200);
    expect(res.body.items.map((item: { id: string }) => item.id)).toEqual([second]);
    expect((await queueOf(own.workspaceId, "?limit=2")).body.items.map((item: { id: string }) => item.id)).toEqual([validated, second]);
    expect((await queueOf(own.workspaceId, "?status=draft")).body.items.map((item: { id: string }) => item.id)).toEqual([second, first]);
  });

  it("answers at most 200 artifacts when no limit is given", async () => {
    const own = await createWorkspaceWithKey(t.services);
    const artifacts = Array.from({ length: 201 }, (_, i) => ({ summary: `Imported ${i}`, why: "Filling the queue", confidence: 0.5, confidenceExplanation: "synthetic", status: "draft" as const }));
    await importContent(t.services, own.workspaceId, { artifacts });
    const res = await queueOf(own.workspaceId);
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(200);
  });

  it.each(["0", "201", "ten"])("answers 400 for limit=%s", async (limit) => {
    const res = await queueOf(ws.workspaceId, `?limit=${limit}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("query parameter limit: must be an integer from 1 to 200");
  });

  it("answers 404 for an unknown workspace whatever the filters", async () => {
    expect((await queueOf("ws_missing", "?status=disputed&limit=5")).status).toBe(404);
  });
});
