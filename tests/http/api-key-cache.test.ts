import request from "supertest";
import { adminAuth, createWorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

// The in-process key cache (5 s by default): a request authenticates without a database lookup,
// yet revocation still holds.
let t: TestApp;
let now = Date.parse("2026-03-01T10:00:00Z");
beforeAll(async () => {
  t = await createTestApp({ clock: { now: () => new Date(now) } });
});
afterAll(() => t.close());

const briefing = (auth: { Authorization: string }) => request(t.app).get("/api/v1/briefing").set(auth);

describe("the API-key cache", () => {
  it("refuses a key revoked through this process at once, although it was just used", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    expect((await briefing(ws.auth)).status).toBe(200);
    await request(t.app).delete(`/admin/v1/keys/${ws.keyId}`).set(adminAuth(t.adminToken)).expect(204);
    const res = await briefing(ws.auth);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: "This API key has been revoked", code: "unauthorized" });
  });

  it("refuses a key revoked by another process once the cache TTL has passed", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    expect((await briefing(ws.auth)).status).toBe(200);
    // Another process revokes: only the shared database changes.
    await t.database.prisma.apiKey.update({ where: { workspaceId_id: { workspaceId: ws.workspaceId, id: ws.keyId } }, data: { revokedAt: new Date(now) } });
    now += 5_001;
    expect((await briefing(ws.auth)).status).toBe(401);
  });
});
