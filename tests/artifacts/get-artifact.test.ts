import request from "supertest";
import { disputeArtifact, pushArtifact, validatedArtifact } from "../support/artifacts";
import { createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let ws: WorkspaceWithKey;
beforeAll(async () => {
  t = await createTestApp();
  ws = await createWorkspaceWithKey(t.services);
});
afterAll(() => t.close());

const get = (id: string, auth = ws.auth) => request(t.app).get(`/api/v1/artifacts/${encodeURIComponent(id)}`).set(auth);

describe("GET /api/v1/artifacts/{id}", () => {
  it("answers 200 with the whole validated artifact as ArtifactDetail", async () => {
    const body = {
      summary: "Enterprise churn doubled in Q3",
      why: "Churn drives NRR",
      confidence: 0.8,
      confidenceExplanation: "14 months of data",
      content: "## Churn\nDoubled.",
      recommendation: "Call the top accounts",
      keyFindings: ["4.1% → 8.3%"],
      recommendations: [{ text: "Call them", type: "recommendation" }],
      sourceSystem: "acme-agent",
      dataSources: [{ type: "database", name: "warehouse" }],
      codeExecuted: [{ language: "sql", code: "select 1" }],
    };
    const id = await validatedArtifact(t, ws.auth, body);
    const res = await get(id);
    expect(res.status).toBe(200);
    const { trigger: _t, ...expected } = { ...body, trigger: undefined };
    expect(res.body).toEqual({
      ...expected,
      id,
      createdAt: expect.any(Number),
      validatedAt: expect.any(Number),
      contentTruncated: false,
    });
  });

  it("answers each field as stored: times to the millisecond, every digit of the confidence, JSON fields as written", async () => {
    const id = await validatedArtifact(t, ws.auth, {
      confidence: 0.123456789012345,
      keyFindings: ["émoji 😀 and \"quotes\"", "tab\there"],
      recommendations: [{ text: "Call them", type: "recommendation" }],
      dataSources: [{ type: "database", name: "warehouse" }],
      codeExecuted: [{ language: "sql", code: "select '\\n'" }],
    });
    const stored = await t.database.prisma.artifact.findFirstOrThrow({ where: { id } });
    const res = await get(id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      confidence: stored.confidence,
      keyFindings: stored.keyFindings,
      recommendations: stored.recommendations,
      dataSources: stored.dataSources,
      codeExecuted: stored.codeExecuted,
      createdAt: stored.createdAt.getTime(),
      validatedAt: stored.validatedAt!.getTime(),
    });
    expect(res.body.confidence).toBe(0.123456789012345);
  });

  it("omits optional fields that have no value and answers dataSources as []", async () => {
    const id = await validatedArtifact(t, ws.auth, { dataSources: null, keyFindings: null, recommendation: null });
    const res = await get(id);
    expect(res.body.dataSources).toEqual([]);
    for (const field of ["content", "recommendation", "keyFindings", "recommendations", "codeExecuted", "sourceSystem", "previousArtifactId"]) {
      expect(res.body).not.toHaveProperty(field);
    }
    expect(res.body.contentTruncated).toBe(false);
  });

  it("returns structured content as stored", async () => {
    const content = { root: "s", elements: { s: { type: "Section", props: {}, children: [] } } };
    const id = await validatedArtifact(t, ws.auth, { content });
    expect((await get(id)).body.content).toEqual(content);
  });

  it("returns string content of exactly 20,000 characters whole", async () => {
    const id = await validatedArtifact(t, ws.auth, { content: "a".repeat(20_000) });
    const res = await get(id);
    expect(res.body.content).toHaveLength(20_000);
    expect(res.body.contentTruncated).toBe(false);
  });

  it("cuts string content of 20,001 characters to 20,000 and says so", async () => {
    const id = await validatedArtifact(t, ws.auth, { content: "a".repeat(20_000) + "b" });
    const res = await get(id);
    expect(res.body.content).toBe("a".repeat(20_000));
    expect(res.body.contentTruncated).toBe(true);
  });

  it("returns structured content whose JSON text is exactly 20,000 characters as an object", async () => {
    const content = { text: "x".repeat(20_000 - '{"text":""}'.length) };
    expect(JSON.stringify(content)).toHaveLength(20_000);
    const id = await validatedArtifact(t, ws.auth, { content });
    const res = await get(id);
    expect(res.body.content).toEqual(content);
    expect(res.body.contentTruncated).toBe(false);
  });

  it("returns the first 20,000 characters of the JSON text of larger structured content", async () => {
    const content = { text: "x".repeat(20_001 - '{"text":""}'.length) };
    const id = await validatedArtifact(t, ws.auth, { content });
    const res = await get(id);
    expect(res.body.content).toBe(JSON.stringify(content).slice(0, 20_000));
    expect(res.body.contentTruncated).toBe(true);
  });

  it("never splits a surrogate pair when cutting", async () => {
    const id = await validatedArtifact(t, ws.auth, { content: "a".repeat(19_999) + "😀" + "tail" });
    const res = await get(id);
    expect(res.body.content).toBe("a".repeat(19_999));
    expect(res.body.contentTruncated).toBe(true);
  });

  it("answers 404 for a draft", async () => {
    const id = await pushArtifact(t, ws.auth);
    const res = await get(id);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: `Artifact ${id} not found`, code: "not_found" });
  });

  it("answers 404 for a disputed artifact", async () => {
    const id = await pushArtifact(t, ws.auth);
    await disputeArtifact(t, id);
    expect((await get(id)).status).toBe(404);
  });

  it("answers 404 for an unknown id", async () => {
    const res = await get("art_doesnotexist");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "Artifact art_doesnotexist not found", code: "not_found" });
  });

  it("answers 404, with the same body, for another workspace's validated artifact", async () => {
    const other = await createWorkspaceWithKey(t.services);
    const id = await validatedArtifact(t, other.auth);
    const res = await get(id);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: `Artifact ${id} not found`, code: "not_found" });
  });

  it("answers 404 for odd path segments", async () => {
    for (const id of ["..", "%2e%2e", "art_x%2Fy", "' OR 1=1 --", "😀"]) {
      expect((await request(t.app).get(`/api/v1/artifacts/${id}`).set(ws.auth)).status).toBe(404);
    }
  });
});
