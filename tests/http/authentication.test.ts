import request from "supertest";
import { SCOPES } from "../../src/auth/scopes";
import { hashApiKeySecret } from "../../src/auth/api-key-secret";
import { PROTECTED_ENDPOINTS } from "../support/api-endpoints";
import { createKey, createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";
import { waitFor } from "../support/wait-for";

let t: TestApp;
let full: WorkspaceWithKey;

beforeAll(async () => {
  t = await createTestApp();
  full = await createWorkspaceWithKey(t.services);
});
afterAll(() => t.close());

/** The key's lastUsedAt once its write (made after the answer, off the request path) has landed. */
const lastUsedOf = (keyId: string) =>
  waitFor(
    async () =>
      (await t.database.prisma.apiKey.findUniqueOrThrow({ where: { workspaceId_id: { workspaceId: full.workspaceId, id: keyId } } })).lastUsedAt,
    { what: "the key's lastUsedAt" },
  );

const call = (endpoint: (typeof PROTECTED_ENDPOINTS)[number]) => request(t.app)[endpoint.method](endpoint.path);
const label = (e: (typeof PROTECTED_ENDPOINTS)[number]) => `${e.method.toUpperCase()} ${e.path}`;

describe.each(PROTECTED_ENDPOINTS.map((e) => [label(e), e] as const))("%s", (_name, endpoint) => {
  it("answers 401 without an Authorization header", async () => {
    const res = await call(endpoint);
    expect(res.status).toBe(401);
    expect(res.body.error).toMatch(/Missing Authorization header/);
  });

  it("answers 401 for a scheme other than Bearer", async () => {
    const res = await call(endpoint).set("Authorization", `Basic ${Buffer.from("a:b").toString("base64")}`);
    expect(res.status).toBe(401);
    expect(res.body.error).toMatch(/Bearer scheme/);
  });

  it("answers 401 for an empty Bearer token", async () => {
    const res = await call(endpoint).set("Authorization", "Bearer ");
    expect(res.status).toBe(401);
    expect(res.body.error).toMatch(/empty Bearer token/);
  });

  it("answers 401 for an unknown key", async () => {
    const res = await call(endpoint).set("Authorization", "Bearer wsi_doesnotexist0000000000000000000000000000");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: "Invalid API key", code: "unauthorized" });
  });

  it("answers 401 for a revoked key", async () => {
    const key = await createKey(t.services, full.workspaceId);
    await t.services.apiKeys.revoke(full.workspaceId, key.keyId);
    const res = await call(endpoint).set(key.auth);
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("This API key has been revoked");
  });

  it("lets a key without scopes through authentication", async () => {
    const res = await call(endpoint).set(full.auth);
    expect(res.status).toBe(endpoint.allowed);
  });

  it.each(SCOPES.map((scope) => [scope]))("with a key scoped to %s: allowed only if it is the endpoint's scope", async (scope) => {
    const key = await createKey(t.services, full.workspaceId, { scopes: [scope] });
    const res = await call(endpoint).set(key.auth);
    if (scope === endpoint.scope) {
      expect(res.status).toBe(endpoint.allowed);
    } else {
      expect(res.status).toBe(403);
      expect(res.body.error).toBe(
        `This API key lacks the ${endpoint.scope} scope, which ${endpoint.method.toUpperCase()} ${endpoint.route} requires`,
      );
    }
  });
});

describe("API key authentication", () => {
  it("accepts the scheme name in any letter case", async () => {
    const res = await request(t.app).get("/api/v1/briefing").set("Authorization", `bearer ${full.key}`);
    expect(res.status).toBe(200);
  });

  it("refuses a key the moment it is revoked", async () => {
    const key = await createKey(t.services, full.workspaceId);
    const before = await request(t.app).get("/api/v1/briefing").set(key.auth);
    expect(before.status).toBe(200);
    await request(t.app).delete(`/admin/v1/keys/${key.keyId}`).set("Authorization", `Bearer ${t.adminToken}`).expect(204);
    const after = await request(t.app).get("/api/v1/briefing").set(key.auth);
    expect(after.status).toBe(401);
  });

  it("stores only the SHA-256 digest of the secret", async () => {
    const key = await createKey(t.services, full.workspaceId);
    const row = await t.database.prisma.apiKey.findUniqueOrThrow({ where: { workspaceId_id: { workspaceId: full.workspaceId, id: key.keyId } } });
    expect(row.hash).toBe(hashApiKeySecret(key.key));
    expect(JSON.stringify(row)).not.toContain(key.key);
  });

  it("issues secrets with the wsi_ prefix and at least 32 random base62 characters", async () => {
    const key = await createKey(t.services, full.workspaceId);
    expect(key.key).toMatch(/^wsi_[0-9A-Za-z]{32,}$/);
  });

  it("records lastUsedAt when a key is used", async () => {
    const key = await createKey(t.services, full.workspaceId);
    await request(t.app).get("/api/v1/briefing").set(key.auth);
    expect(await lastUsedOf(key.keyId)).toBeInstanceOf(Date);
  });

  it("writes lastUsedAt at most once a minute per key", async () => {
    const key = await createKey(t.services, full.workspaceId);
    await request(t.app).get("/api/v1/briefing").set(key.auth);
    const first = await lastUsedOf(key.keyId);
    await request(t.app).get("/api/v1/briefing").set(key.auth);
    // A write that must not happen has no event to wait for: a pause gives it the chance to show.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = (await t.database.prisma.apiKey.findUniqueOrThrow({ where: { workspaceId_id: { workspaceId: full.workspaceId, id: key.keyId } } })).lastUsedAt;
    expect(second).toEqual(first);
  });

  it("checks the key before the input: a bad request without a key is 401, not 400", async () => {
    const res = await request(t.app).get("/api/v1/artifacts?limit=999");
    expect(res.status).toBe(401);
  });

  it("checks the scope before the input: a bad request with a wrong-scope key is 403, not 400", async () => {
    const key = await createKey(t.services, full.workspaceId, { scopes: ["skills:read"] });
    const res = await request(t.app).post("/api/v1/artifacts").set(key.auth).send("{not json").type("json");
    expect(res.status).toBe(403);
  });

  it("serves the OpenAPI document without a key", async () => {
    await request(t.app).get("/api/v1/openapi.json").expect(200);
  });
});
