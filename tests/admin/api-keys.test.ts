import request from "supertest";
import { hashApiKeySecret } from "../../src/auth/api-key-secret";
import { adminAuth } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const admin = () => adminAuth(t.adminToken);
const newWorkspace = async (name = "W") => (await t.services.workspaces.create({ name })).id;

describe("POST /admin/v1/workspaces/{id}/keys", () => {
  it("answers 201 with id, name, scopes, createdAt and the secret", async () => {
    const ws = await newWorkspace();
    const res = await request(t.app).post(`/admin/v1/workspaces/${ws}/keys`).set(admin()).send({ name: "agent", scopes: ["artifacts:read"] });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^key_/),
      name: "agent",
      scopes: ["artifacts:read"],
      createdAt: expect.any(Number),
      key: expect.stringMatching(/^wsi_[0-9A-Za-z]{40}$/),
    });
  });

  it("gives a key without scopes full access, reported as an empty list", async () => {
    const ws = await newWorkspace();
    const res = await request(t.app).post(`/admin/v1/workspaces/${ws}/keys`).set(admin()).send({ name: "full" });
    expect(res.body.scopes).toEqual([]);
    const briefing = await request(t.app).get("/api/v1/skills").set("Authorization", `Bearer ${res.body.key}`);
    expect([401, 403]).not.toContain(briefing.status);
  });

  it("answers 400 for an unknown scope name", async () => {
    const ws = await newWorkspace();
    const res = await request(t.app).post(`/admin/v1/workspaces/${ws}/keys`).set(admin()).send({ name: "x", scopes: ["artifacts:delete"] });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(
      "scopes[0]: must be one of: artifacts:read, artifacts:write, intelligence:read, data:read, skills:read",
    );
  });

  it("answers 400 when name is missing", async () => {
    const ws = await newWorkspace();
    const res = await request(t.app).post(`/admin/v1/workspaces/${ws}/keys`).set(admin()).send({});
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("name: is required");
  });

  it("answers 404 for an unknown workspace", async () => {
    const res = await request(t.app).post("/admin/v1/workspaces/ws_nope/keys").set(admin()).send({ name: "x" });
    expect(res.status).toBe(404);
  });

  it("keeps only the hash of the secret", async () => {
    const ws = await newWorkspace();
    const res = await request(t.app).post(`/admin/v1/workspaces/${ws}/keys`).set(admin()).send({ name: "h" });
    const rows = await t.database.prisma.$queryRawUnsafe<Array<Record<string, unknown>>>(
      `SELECT * FROM api_keys WHERE id = $1`,
      res.body.id,
    );
    expect(rows[0]!.hash).toBe(hashApiKeySecret(res.body.key));
    expect(JSON.stringify(rows)).not.toContain(res.body.key);
  });
});

describe("GET /admin/v1/workspaces/{id}/keys", () => {
  it("lists keys newest first with lastUsedAt and revokedAt, never a secret", async () => {
    const ws = await newWorkspace();
    const first = await request(t.app).post(`/admin/v1/workspaces/${ws}/keys`).set(admin()).send({ name: "first" });
    const second = await request(t.app).post(`/admin/v1/workspaces/${ws}/keys`).set(admin()).send({ name: "second" });
    const res = await request(t.app).get(`/admin/v1/workspaces/${ws}/keys`).set(admin());
    expect(res.status).toBe(200);
    expect(res.body.items.map((k: { name: string }) => k.name)).toEqual(["second", "first"]);
    expect(res.body.items[0]).toEqual({
      id: second.body.id,
      name: "second",
      scopes: [],
      createdAt: expect.any(Number),
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(JSON.stringify(res.body)).not.toContain(first.body.key);
    expect(JSON.stringify(res.body)).not.toContain("wsi_");
  });

  it("answers 404 for an unknown workspace", async () => {
    const res = await request(t.app).get("/admin/v1/workspaces/ws_nope/keys").set(admin());
    expect(res.status).toBe(404);
  });

  it("lists only the keys of the named workspace", async () => {
    const a = await newWorkspace("A");
    const b = await newWorkspace("B");
    await request(t.app).post(`/admin/v1/workspaces/${a}/keys`).set(admin()).send({ name: "a-key" });
    await request(t.app).post(`/admin/v1/workspaces/${b}/keys`).set(admin()).send({ name: "b-key" });
    const res = await request(t.app).get(`/admin/v1/workspaces/${a}/keys`).set(admin());
    expect(res.body.items.map((k: { name: string }) => k.name)).toEqual(["a-key"]);
  });
});

describe("DELETE /admin/v1/keys/{id}", () => {
  it("answers 204 and the key answers 401 from then on", async () => {
    const ws = await newWorkspace();
    const created = await request(t.app).post(`/admin/v1/workspaces/${ws}/keys`).set(admin()).send({ name: "r" });
    const key = { Authorization: `Bearer ${created.body.key}` };
    expect((await request(t.app).get("/api/v1/skills").set(key)).status).toBe(200);
    const res = await request(t.app).delete(`/admin/v1/keys/${created.body.id}`).set(admin());
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await request(t.app).get("/api/v1/skills").set(key)).status).toBe(401);
  });

  it("shows revokedAt in the listing", async () => {
    const ws = await newWorkspace();
    const created = await request(t.app).post(`/admin/v1/workspaces/${ws}/keys`).set(admin()).send({ name: "r" });
    await request(t.app).delete(`/admin/v1/keys/${created.body.id}`).set(admin());
    const list = await request(t.app).get(`/admin/v1/workspaces/${ws}/keys`).set(admin());
    expect(list.body.items[0].revokedAt).toEqual(expect.any(Number));
  });

  it("is harmless to repeat", async () => {
    const ws = await newWorkspace();
    const created = await request(t.app).post(`/admin/v1/workspaces/${ws}/keys`).set(admin()).send({ name: "r" });
    await request(t.app).delete(`/admin/v1/keys/${created.body.id}`).set(admin()).expect(204);
    await request(t.app).delete(`/admin/v1/keys/${created.body.id}`).set(admin()).expect(204);
  });

  it("answers 404 for an unknown key", async () => {
    const res = await request(t.app).delete("/admin/v1/keys/key_nope").set(admin());
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("API key key_nope not found");
  });
});

describe("DELETE /admin/v1/workspaces/{workspaceId}/keys/{keyId}", () => {
  const createdKey = async (ws: string) => (await request(t.app).post(`/admin/v1/workspaces/${ws}/keys`).set(admin()).send({ name: "r" })).body as { id: string; key: string };
  const works = async (secret: string) => (await request(t.app).get("/api/v1/skills").set("Authorization", `Bearer ${secret}`)).status;

  it("answers 204 with no body and the key answers 401 from then on", async () => {
    const ws = await newWorkspace();
    const created = await createdKey(ws);
    const res = await request(t.app).delete(`/admin/v1/workspaces/${ws}/keys/${created.id}`).set(admin());
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect(await works(created.key)).toBe(401);
  });

  it("is harmless to repeat", async () => {
    const ws = await newWorkspace();
    const created = await createdKey(ws);
    await request(t.app).delete(`/admin/v1/workspaces/${ws}/keys/${created.id}`).set(admin()).expect(204);
    await request(t.app).delete(`/admin/v1/workspaces/${ws}/keys/${created.id}`).set(admin()).expect(204);
  });

  it("answers 404 for a key of another workspace, in the words of an unknown key, and leaves the key working", async () => {
    const home = await newWorkspace("Home");
    const other = await newWorkspace("Other");
    const foreign = await createdKey(other);
    const res = await request(t.app).delete(`/admin/v1/workspaces/${home}/keys/${foreign.id}`).set(admin());
    const unknown = await request(t.app).delete(`/admin/v1/workspaces/${home}/keys/key_nope`).set(admin());
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: `API key ${foreign.id} not found`, code: "not_found" });
    expect(unknown.body).toEqual({ error: "API key key_nope not found", code: "not_found" });
    expect(await works(foreign.key)).toBe(200);
    const listed = await request(t.app).get(`/admin/v1/workspaces/${other}/keys`).set(admin());
    expect(listed.body.items[0].revokedAt).toBeNull();
  });

  it("answers 404 naming the workspace when it does not exist", async () => {
    const res = await request(t.app).delete("/admin/v1/workspaces/ws_nope/keys/key_nope").set(admin());
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("Workspace ws_nope not found");
  });

  it("answers 401 without the admin token", async () => {
    const ws = await newWorkspace();
    const created = await createdKey(ws);
    await request(t.app).delete(`/admin/v1/workspaces/${ws}/keys/${created.id}`).expect(401);
    expect(await works(created.key)).toBe(200);
  });
});

describe("DELETE /admin/v1/keys/{id}, deprecated", () => {
  it("still revokes the key in its own workspace, as the scoped path does", async () => {
    const ws = await newWorkspace();
    const created = await request(t.app).post(`/admin/v1/workspaces/${ws}/keys`).set(admin()).send({ name: "old-path" });
    await request(t.app).delete(`/admin/v1/keys/${created.body.id}`).set(admin()).expect(204);
    const listed = await request(t.app).get(`/admin/v1/workspaces/${ws}/keys`).set(admin());
    expect(listed.body.items[0]).toMatchObject({ id: created.body.id, revokedAt: expect.any(Number) });
  });
});
