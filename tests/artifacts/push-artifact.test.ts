import request from "supertest";
import { minimalArtifact, pushArtifact } from "../support/artifacts";
import { adminAuth, createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let ws: WorkspaceWithKey;
beforeAll(async () => {
  t = await createTestApp();
  ws = await createWorkspaceWithKey(t.services, { keyName: "pricing-agent" });
});
afterAll(() => t.close());

const push = (body: unknown) => request(t.app).post("/api/v1/artifacts").set(ws.auth).send(body as object);
const stored = (id: string) => t.database.prisma.artifact.findFirstOrThrow({ where: { id } });

describe("POST /api/v1/artifacts", () => {
  it("answers 201 with the new artifactId and status draft", async () => {
    const res = await push(minimalArtifact());
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ artifactId: expect.stringMatching(/^art_[0-9A-Za-z]{22}$/), status: "draft" });
  });

  it("creates the draft in the key's workspace and records the pushing key and its name", async () => {
    const id = await pushArtifact(t, ws.auth);
    const row = await stored(id);
    expect(row).toMatchObject({ workspaceId: ws.workspaceId, status: "draft", createdByKeyId: ws.keyId, createdBy: "pricing-agent" });
  });

  it("records every push as external, whatever trigger says", async () => {
    const id = await pushArtifact(t, ws.auth, { trigger: "chat" });
    expect((await stored(id)).trigger).toBe("external");
  });

  it("stores every optional field as given", async () => {
    const full = minimalArtifact({
      content: { root: "r", elements: { r: { type: "Section", props: {}, children: ["m"] }, m: { type: "Markdown", props: { content: "# Hi" } } } },
      recommendation: "Call the top 20 accounts",
      keyFindings: ["Churn 4.1% → 8.3%", "Concentrated in EMEA"],
      recommendations: [{ text: "Call them", type: "recommendation" }, { text: "Q3 had a price change", type: "warning" }],
      sourceSystem: "acme-agent/2.1",
      dataSources: [{ type: "database", name: "warehouse", id: "ds_1" }, { type: "file", name: "churn.csv" }],
      codeExecuted: [{ language: "sql", code: "select 1", output: "1", timestamp: 1763596800000, title: "probe", toolName: "sql" }],
    });
    const id = await pushArtifact(t, ws.auth, full);
    const row = await stored(id);
    expect(row).toMatchObject({
      content: full.content,
      recommendation: full.recommendation,
      keyFindings: full.keyFindings,
      recommendations: full.recommendations,
      sourceSystem: full.sourceSystem,
      dataSources: full.dataSources,
      codeExecuted: full.codeExecuted,
    });
  });

  it("accepts null for every nullable field", async () => {
    const res = await push(
      minimalArtifact({ content: null, recommendation: null, keyFindings: null, recommendations: null, sourceSystem: null, dataSources: null, codeExecuted: null }),
    );
    expect(res.status).toBe(201);
  });

  it("stores structured content exactly as submitted, key order and unicode included", async () => {
    const text = `{"summary":"s","why":"w","confidence":1,"confidenceExplanation":"c","content":{"z":1,"a":{"b":"😀 naïve","a":[3,1,2]}}}`;
    const res = await request(t.app).post("/api/v1/artifacts").set(ws.auth).type("json").send(text);
    const rows = await t.database.prisma.$queryRaw<Array<{ content: string }>>`SELECT content::text AS content FROM artifacts WHERE id = ${res.body.artifactId}`;
    expect(rows[0]!.content).toBe(`{"z":1,"a":{"b":"😀 naïve","a":[3,1,2]}}`);
  });

  it("stores string content as a string", async () => {
    const id = await pushArtifact(t, ws.auth, { content: "## Findings\nChurn doubled." });
    expect((await stored(id)).content).toBe("## Findings\nChurn doubled.");
  });

  it.each([["0.75", 0.75], ["1", 1], ["0", 0], [0, 0], [1, 1], [".5", 0.5]])("coerces confidence %p to %p", async (given, expected) => {
    const id = await pushArtifact(t, ws.auth, { confidence: given });
    expect((await stored(id)).confidence).toBe(expected);
  });

  it.each([
    ["", "confidence: must be a number, not a string"],
    ["   ", "confidence: must be a number, not a string"],
    ["abc", "confidence: must be a number, not a string"],
    ["NaN", "confidence: must be a number, not a string"],
    ["Infinity", "confidence: must be a number, not a string"],
    ["0x1", "confidence: must be a number, not a string"],
    ["1e-1", "confidence: must be a number, not a string"],
    [true, "confidence: must be a number, not a boolean"],
    [null, "confidence: must be a number, not null"],
    [[0.5], "confidence: must be a number, not an array"],
    [1.01, "confidence: must be at most 1"],
    ["1.5", "confidence: must be at most 1"],
    [-0.01, "confidence: must be at least 0"],
  ])("answers 400 for confidence %p", async (given, message) => {
    const res = await push(minimalArtifact({ confidence: given }));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

  it.each(["summary", "why", "confidence", "confidenceExplanation"])("answers 400 naming %s when it is missing", async (field) => {
    const body: Record<string, unknown> = minimalArtifact();
    delete body[field];
    const res = await push(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(`${field}: is required`);
  });

  it.each([
    [{ summary: 5 }, "summary: must be a string, not a number"],
    [{ dataSources: [{ type: "spreadsheet", name: "x" }] }, "dataSources[0].type: must be one of: file, database, external"],
    [{ dataSources: [{ type: "file" }] }, "dataSources[0].name: is required"],
    [{ recommendations: [{ text: "t", type: "urgent" }] }, "recommendations[0].type: must be one of: recommendation, warning, info"],
    [{ keyFindings: ["ok", 3] }, "keyFindings[1]: must be a string, not a number"],
    [{ codeExecuted: [{ language: "sql" }] }, "codeExecuted[0].code: is required"],
    [{ content: [1, 2] }, "content: must be a string or an object"],
    [{ content: 42 }, "content: must be a string or an object"],
  ])("answers 400 naming the field for %p", async (override, message) => {
    const res = await push(minimalArtifact(override));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

  it("answers 400 for a number in content beyond double range instead of storing null", async () => {
    const res = await request(t.app)
      .post("/api/v1/artifacts")
      .set(ws.auth)
      .type("json")
      .send(`{"summary":"s","why":"w","confidence":1,"confidenceExplanation":"c","content":{"big":1e400}}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("content.big: is a number too large to store");
  });

  it("answers 400 for a NUL character inside structured content", async () => {
    const res = await push(minimalArtifact({ content: { elements: { a: { props: { content: "x\u0000y" } } } } }));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^content\.elements\.a\.props\.content: contains a NUL character/);
  });

  it("ignores unknown fields", async () => {
    const res = await push(minimalArtifact({ futureField: { x: 1 } }));
    expect(res.status).toBe(201);
  });

  it("keeps the draft out of the review queue of other workspaces", async () => {
    const other = await createWorkspaceWithKey(t.services);
    const id = await pushArtifact(t, ws.auth);
    const queue = await request(t.app).get(`/admin/v1/workspaces/${other.workspaceId}/artifacts`).set(adminAuth(t.adminToken));
    expect(queue.body.items.map((item: { id: string }) => item.id)).not.toContain(id);
  });
});
