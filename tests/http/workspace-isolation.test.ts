import request from "supertest";
import { createWorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("workspace isolation", () => {
  it("binds each key to its own workspace", async () => {
    const a = await createWorkspaceWithKey(t.services);
    const b = await createWorkspaceWithKey(t.services);
    expect((await t.services.apiKeys.authenticate(a.key)).workspaceId).toBe(a.workspaceId);
    expect((await t.services.apiKeys.authenticate(b.key)).workspaceId).toBe(b.workspaceId);
  });

  it("revoking a key of one workspace leaves the other workspace's keys working", async () => {
    const a = await createWorkspaceWithKey(t.services);
    const b = await createWorkspaceWithKey(t.services);
    await t.services.apiKeys.revoke(a.workspaceId, a.keyId);
    expect((await request(t.app).get("/api/v1/skills").set(a.auth)).status).toBe(401);
    expect((await request(t.app).get("/api/v1/skills").set(b.auth)).status).toBe(200);
  });

  it("never lists one workspace's keys under another", async () => {
    const a = await createWorkspaceWithKey(t.services, { keyName: "only-in-a" });
    const b = await createWorkspaceWithKey(t.services, { keyName: "only-in-b" });
    const listA = await t.services.apiKeys.list(a.workspaceId);
    expect(listA.map((k) => k.name)).toEqual(["only-in-a"]);
    expect(listA.every((k) => k.workspaceId === a.workspaceId)).toBe(true);
    expect((await t.services.apiKeys.list(b.workspaceId)).map((k) => k.name)).toEqual(["only-in-b"]);
  });
});
