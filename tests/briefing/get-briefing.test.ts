import request from "supertest";
import { createWorkspaceWithKey, importContent, type WorkspaceWithKey } from "../support/factories";
import { capturingLogger } from "../support/log-capture";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
const log = capturingLogger();
beforeAll(async () => {
  t = await createTestApp({ logger: log.logger });
});
afterAll(() => t.close());

const briefing = (ws: WorkspaceWithKey) => request(t.app).get("/api/v1/briefing").set(ws.auth);

describe("GET /api/v1/briefing", () => {
  it("answers the workspace's name and context", async () => {
    const ws = await createWorkspaceWithKey(t.services, { workspaceName: "Acme analytics" });
    await t.services.workspaces.update(ws.workspaceId, { context: "Fiscal year starts in April." });
    const res = await briefing(ws);
    expect(res.status).toBe(200);
    expect(res.body.workspace).toEqual({ name: "Acme analytics", context: "Fiscal year starts in April." });
  });

  it("answers context null, and every list empty, for a workspace with nothing in it", async () => {
    const ws = await createWorkspaceWithKey(t.services, { workspaceName: "Empty" });
    const res = await briefing(ws);
    expect(res.body).toEqual({ workspace: { name: "Empty", context: null }, directives: [], directivesAvailable: true, memories: [] });
  });

  it("lists directives as {id, name, content}, by name", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    await importContent(t.services, ws.workspaceId, {
      directives: [
        { name: "pii", content: "Never output customer emails." },
        { name: "currency", content: "Report money in EUR." },
      ],
    });
    const res = await briefing(ws);
    expect(res.body.directivesAvailable).toBe(true);
    expect(res.body.directives).toEqual([
      { id: expect.stringMatching(/^dir_/), name: "currency", content: "Report money in EUR." },
      { id: expect.stringMatching(/^dir_/), name: "pii", content: "Never output customer emails." },
    ]);
  });

  it("includes only active rules and definitions, newest first, with goingForward only when set", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    await importContent(t.services, ws.workspaceId, {
      memories: [
        { type: "rule", statement: "Exclude test accounts.", goingForward: "Filter is_test = false.", createdAt: "2025-01-01T00:00:00Z" },
        { type: "definition", statement: "Churn is a cancelled subscription.", createdAt: "2025-03-01T00:00:00Z" },
        { type: "rule", statement: "Old rule, retired.", active: false, createdAt: "2025-04-01T00:00:00Z" },
        { type: "preference", statement: "Prefers bar charts.", createdAt: "2025-05-01T00:00:00Z" },
        { type: "finding", statement: "EMEA grew 12%.", createdAt: "2025-05-02T00:00:00Z" },
      ],
    });
    const res = await briefing(ws);
    expect(res.body.memories).toEqual([
      { type: "definition", statement: "Churn is a cancelled subscription.", createdAt: Date.parse("2025-03-01T00:00:00Z") },
      {
        type: "rule",
        statement: "Exclude test accounts.",
        goingForward: "Filter is_test = false.",
        createdAt: Date.parse("2025-01-01T00:00:00Z"),
      },
    ]);
    expect(Object.keys(res.body.memories[0]).sort()).toEqual(["createdAt", "statement", "type"]);
  });

  it("leaves out the memory-bank entries of artifacts", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    await importContent(t.services, ws.workspaceId, {
      artifacts: [{ summary: "Churn doubled", why: "w", confidence: 0.9, confidenceExplanation: "c" }],
    });
    expect((await briefing(ws)).body.memories).toEqual([]);
  });

  it("returns at most 200 memories, the newest", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    const start = Date.parse("2025-01-01T00:00:00Z");
    await importContent(t.services, ws.workspaceId, {
      memories: Array.from({ length: 205 }, (_, i) => ({ type: "rule" as const, statement: `Rule ${i}`, createdAt: start + i * 1000 })),
    });
    const { memories } = (await briefing(ws)).body;
    expect(memories).toHaveLength(200);
    expect(memories[0].statement).toBe("Rule 204");
    expect(memories[199].statement).toBe("Rule 5");
  });

  it("answers 200 without directives, directivesAvailable false, when the directive store fails", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    await importContent(t.services, ws.workspaceId, {
      directives: [{ name: "pii", content: "No emails." }],
      memories: [{ type: "rule", statement: "Exclude test accounts." }],
    });
    jest.spyOn(t.services.directives, "listByWorkspace").mockRejectedValueOnce(new Error("directive store timed out"));
    const res = await briefing(ws);
    expect(res.status).toBe(200);
    expect(res.body.directives).toEqual([]);
    expect(res.body.directivesAvailable).toBe(false);
    expect(res.body.memories).toHaveLength(1);
    expect(log.lines()).toContainEqual(
      expect.objectContaining({ level: 40, msg: "directive store unavailable; briefing without directives", workspaceId: ws.workspaceId }),
    );
  });

  it("answers 404 when the key's workspace no longer exists", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    const authenticate = t.services.apiKeys.authenticate;
    // The workspace vanishes between authentication and the read (its keys cascade with it).
    jest.spyOn(t.services.apiKeys, "authenticate").mockImplementationOnce(async (secret) => {
      const principal = await authenticate(secret);
      await t.database.prisma.workspace.delete({ where: { id: principal.workspaceId } });
      return principal;
    });
    const res = await briefing(ws);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: `Workspace ${ws.workspaceId} no longer exists`, code: "not_found" });
  });

  it("shows a key only its own workspace's briefing", async () => {
    const a = await createWorkspaceWithKey(t.services, { workspaceName: "A" });
    const b = await createWorkspaceWithKey(t.services, { workspaceName: "B" });
    await importContent(t.services, a.workspaceId, {
      context: "context of A",
      directives: [{ name: "only-a", content: "A's rule" }],
      memories: [{ type: "rule", statement: "A's memory" }],
    });
    const res = await briefing(b);
    expect(res.body).toEqual({ workspace: { name: "B", context: null }, directives: [], directivesAvailable: true, memories: [] });
  });
});
