import request from "supertest";
import { adminAuth } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const admin = () => adminAuth(t.adminToken);

describe("POST /admin/v1/workspaces", () => {
  it("creates a workspace and answers 201 with id, name, organizationId and context", async () => {
    const res = await request(t.app).post("/admin/v1/workspaces").set(admin()).send({ name: "Acme", context: "Fiscal year starts in April." });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^ws_/),
      name: "Acme",
      organizationId: expect.stringMatching(/^org_/),
      context: "Fiscal year starts in April.",
    });
  });

  it("puts workspaces of the same organization name in one organization", async () => {
    const a = await request(t.app).post("/admin/v1/workspaces").set(admin()).send({ name: "A", organization: "Globex" });
    const b = await request(t.app).post("/admin/v1/workspaces").set(admin()).send({ name: "B", organization: "Globex" });
    expect(a.body.organizationId).toBe(b.body.organizationId);
  });

  it("answers context null when none is given", async () => {
    const res = await request(t.app).post("/admin/v1/workspaces").set(admin()).send({ name: "No context" });
    expect(res.body.context).toBeNull();
  });

  it("answers 400 naming the field when name is missing", async () => {
    const res = await request(t.app).post("/admin/v1/workspaces").set(admin()).send({});
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("name: is required");
  });

  it("answers 400 when name is empty", async () => {
    const res = await request(t.app).post("/admin/v1/workspaces").set(admin()).send({ name: "" });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("name: must not be empty");
  });

  it("answers 401 without the admin token", async () => {
    const res = await request(t.app).post("/admin/v1/workspaces").send({ name: "x" });
    expect(res.status).toBe(401);
  });

  it("answers 401 for a wrong admin token", async () => {
    const res = await request(t.app).post("/admin/v1/workspaces").set(adminAuth("not-the-token-at-all")).send({ name: "x" });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("Invalid admin token");
  });

  it("does not accept an API key as the admin token", async () => {
    const ws = await t.services.workspaces.create({ name: "K" });
    const key = await t.services.apiKeys.create(ws.id, { name: "k" });
    const res = await request(t.app).post("/admin/v1/workspaces").set(adminAuth(key.key)).send({ name: "x" });
    expect(res.status).toBe(401);
  });
});

describe("PATCH /admin/v1/workspaces/{id}", () => {
  it("renames a workspace and sets its context", async () => {
    const ws = await t.services.workspaces.create({ name: "Old" });
    const res = await request(t.app).patch(`/admin/v1/workspaces/${ws.id}`).set(admin()).send({ name: "New", context: "ctx" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: ws.id, name: "New", context: "ctx" });
  });

  it("clears the context with null", async () => {
    const ws = await t.services.workspaces.create({ name: "C", context: "something" });
    const res = await request(t.app).patch(`/admin/v1/workspaces/${ws.id}`).set(admin()).send({ context: null });
    expect(res.body.context).toBeNull();
    expect(res.body.name).toBe("C");
  });

  it("answers 404 for an unknown workspace", async () => {
    const res = await request(t.app).patch("/admin/v1/workspaces/ws_missing").set(admin()).send({ name: "x" });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("Workspace ws_missing not found");
  });

  it("answers 400 for a context of the wrong type", async () => {
    const ws = await t.services.workspaces.create({ name: "T" });
    const res = await request(t.app).patch(`/admin/v1/workspaces/${ws.id}`).set(admin()).send({ context: 5 });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("context: must be a string, not a number");
  });
});

describe("admin API switched off", () => {
  it("answers 404 naming ADMIN_TOKEN when the server has no admin token", async () => {
    const off = await createTestApp({ adminToken: null });
    try {
      const res = await request(off.app).post("/admin/v1/workspaces").set(adminAuth("anything-at-all-here")).send({ name: "x" });
      expect(res.status).toBe(404);
      expect(res.body.error).toMatch(/admin API is disabled.*ADMIN_TOKEN/);
    } finally {
      await off.close();
    }
  });
});
