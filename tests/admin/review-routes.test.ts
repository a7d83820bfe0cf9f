import request from "supertest";
import { adminAuth } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("admin routes filled in by later work", () => {
  it.each([
    { method: "get", path: "/admin/v1/workspaces/ws_x/artifacts", body: undefined },
    { method: "post", path: "/admin/v1/artifacts/art_x/validate", body: { by: "ana" } },
    { method: "post", path: "/admin/v1/artifacts/art_x/dispute", body: { by: "ana", reason: "wrong" } },
  ] as const)("$method $path is routed behind the admin token and answers 501 {error}", async ({ method, path, body }) => {
    const unauthenticated = await request(t.app)[method](path).send(body);
    expect(unauthenticated.status).toBe(401);
    const res = await request(t.app)[method](path).set(adminAuth(t.adminToken)).send(body);
    expect(res.status).toBe(501);
    expect(res.body.error).toMatch(/not implemented yet/);
  });
});
