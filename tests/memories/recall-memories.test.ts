import request from "supertest";
import { createWorkspaceWithKey, importContent, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let ws: WorkspaceWithKey;

beforeAll(async () => {
  t = await createTestApp();
  ws = await createWorkspaceWithKey(t.services);
  await importContent(t.services, ws.workspaceId, {
    memories: [
      { type: "definition", statement: "Churn counts enterprise accounts whose subscription ended.", goingForward: "Use churned_on." },
      { type: "rule", statement: "Revenue is reported in thousands of US dollars." },
      { type: "preference", statement: "The office coffee machine is serviced on Fridays." },
      { type: "rule", statement: "Retired rule about churn of enterprise trials.", active: false },
    ],
    artifacts: [
      { summary: "Validated churn finding for enterprise", why: "w", confidence: 0.8, confidenceExplanation: "c" },
      { summary: "Draft churn finding for enterprise", why: "w", confidence: 0.8, confidenceExplanation: "c", status: "draft" },
    ],
  });
  await t.services.indexer.runOnce();
});
afterAll(() => t.close());

const recall = (query: string, who: WorkspaceWithKey = ws) =>
  request(t.app).get("/api/v1/memories").query({ query }).set(who.auth);

describe("GET /api/v1/memories", () => {
  it("answers MemoryHit exactly, with context naming the query words the memory contains", async () => {
    const res = await recall("enterprise churn");
    expect(res.status).toBe(200);
    const hit = res.body.hits.find((h: { statement: string }) => h.statement.startsWith("Churn counts"));
    expect(hit).toEqual({
      memoryId: expect.stringMatching(/^mem_/),
      type: "definition",
      statement: "Churn counts enterprise accounts whose subscription ended.",
      goingForward: "Use churned_on.",
      context: "matched: enterprise, churn",
    });
  });

  it("names the caller's own words in context, not their stems", async () => {
    const res = await recall("Which enterprises churned?");
    const hit = res.body.hits.find((h: { statement: string }) => h.statement.startsWith("Churn counts"));
    expect(hit.context).toBe("matched: enterprises, churned");
  });

  it("finds a memory by meaning alone, and then omits context and an absent goingForward", async () => {
    const res = await recall("How should money amounts be shown?");
    expect(res.body.hits[0]).toEqual({
      memoryId: expect.stringMatching(/^mem_/),
      type: "rule",
      statement: "Revenue is reported in thousands of US dollars.",
    });
  });

  it("ranks the memories that match in words and meaning first", async () => {
    const res = await recall("enterprise churn");
    expect(res.body.hits.slice(0, 2).map((h: { statement: string }) => h.statement).sort()).toEqual([
      "Churn counts enterprise accounts whose subscription ended.",
      "Validated churn finding for enterprise",
    ]);
  });

  it("recalls only active memories: not retired ones, not the entries of unvalidated artifacts", async () => {
    const statements = (await recall("enterprise churn")).body.hits.map((h: { statement: string }) => h.statement);
    expect(statements).toContain("Validated churn finding for enterprise");
    expect(statements).not.toContain("Retired rule about churn of enterprise trials.");
    expect(statements).not.toContain("Draft churn finding for enterprise");
  });

  it("leaves out memories that share no word and are far in meaning", async () => {
    const statements = (await recall("enterprise churn")).body.hits.map((h: { statement: string }) => h.statement);
    expect(statements).not.toContain("The office coffee machine is serviced on Fridays.");
  });

  it("returns at most 10 hits", async () => {
    const many = await createWorkspaceWithKey(t.services);
    await importContent(t.services, many.workspaceId, {
      memories: Array.from({ length: 14 }, (_, i) => ({ type: "finding" as const, statement: `Churn note number ${i}` })),
    });
    expect((await recall("churn", many)).body.hits).toHaveLength(10);
  });

  it("finds memories by their words while their vectors are still pending", async () => {
    const fresh = await createWorkspaceWithKey(t.services);
    await importContent(t.services, fresh.workspaceId, { memories: [{ type: "rule", statement: "Quarterly numbers use the fiscal calendar." }] });
    const res = await recall("fiscal calendar", fresh);
    expect(res.body.hits).toEqual([expect.objectContaining({ statement: "Quarterly numbers use the fiscal calendar.", context: "matched: fiscal, calendar" })]);
  });

  it("answers by words alone when the embeddings provider fails", async () => {
    jest.spyOn(t.services.embeddings, "embedQuery").mockRejectedValueOnce(new Error("provider down"));
    const res = await recall("enterprise churn");
    expect(res.status).toBe(200);
    expect(res.body.hits.map((h: { statement: string }) => h.statement)).toContain("Churn counts enterprise accounts whose subscription ended.");
  });

  it("never compares vectors made by another model", async () => {
    const other = await createWorkspaceWithKey(t.services);
    await importContent(t.services, other.workspaceId, { memories: [{ type: "rule", statement: "Revenue is reported in thousands of US dollars." }] });
    await t.services.indexer.runOnce(other.workspaceId);
    await t.database.prisma.memory.updateMany({ where: { workspaceId: other.workspaceId }, data: { embeddingModel: "another/model" } });
    expect((await recall("How should money amounts be shown?", other)).body.hits).toEqual([]);
  });

  it("never returns another workspace's memories", async () => {
    const b = await createWorkspaceWithKey(t.services);
    await importContent(t.services, b.workspaceId, { memories: [{ type: "rule", statement: "Churn of enterprise accounts in workspace B." }] });
    await t.services.indexer.runOnce(b.workspaceId);
    const fromA = (await recall("enterprise churn")).body.hits.map((h: { statement: string }) => h.statement);
    expect(fromA).not.toContain("Churn of enterprise accounts in workspace B.");
    const fromB = (await recall("enterprise churn", b)).body.hits.map((h: { statement: string }) => h.statement);
    expect(fromB).toEqual(["Churn of enterprise accounts in workspace B."]);
  });

  it("answers 400 without a query", async () => {
    const res = await request(t.app).get("/api/v1/memories").set(ws.auth);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("query parameter query: is required");
  });

  it("answers 400 for an empty query", async () => {
    const res = await recall("");
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("query parameter query: must not be empty");
  });
});
