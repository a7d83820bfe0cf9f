import request from "supertest";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("GET /docs", () => {
  it("answers 200 with an HTML page that loads Swagger UI from this server, with no key", async () => {
    const res = await request(t.app).get("/docs").expect(200);
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(res.text).toContain('<script src="/docs/assets/swagger-ui-bundle.js"></script>');
    expect(res.text).toContain('<link rel="stylesheet" href="/docs/assets/swagger-ui.css">');
    expect(res.text).not.toMatch(/https?:\/\//);
  });

  it("sends its own Content-Security-Policy: scripts from this origin only, nothing framed", async () => {
    const csp = (await request(t.app).get("/docs").expect(200)).headers["content-security-policy"];
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it("points its init script at the public OpenAPI document and turns the online validator off", async () => {
    const res = await request(t.app).get("/docs/reference.js").expect(200);
    expect(res.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(res.text).toContain('url: "/api/v1/openapi.json"');
    expect(res.text).toContain("validatorUrl: null");
  });

  it.each([
    ["/docs/assets/swagger-ui-bundle.js", "text/javascript; charset=utf-8"],
    ["/docs/assets/swagger-ui.css", "text/css; charset=utf-8"],
    ["/docs/assets/favicon-32x32.png", "image/png"],
  ])("serves %s from the npm package as %s", async (path, type) => {
    const res = await request(t.app).get(path).buffer(true).expect(200);
    expect(res.headers["content-type"]).toBe(type);
    expect(Number(res.headers["content-length"])).toBeGreaterThan(100);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("answers 404 {error} for a file of the package it does not serve", async () => {
    const res = await request(t.app).get("/docs/assets/index.html").expect(404);
    expect(res.body).toEqual({ error: expect.any(String), code: "not_found" });
    await request(t.app).get("/docs/assets/..%2Fpackage.json").expect(404);
  });

  it("allows Try it out to call PUBLIC_BASE_URL's origin when it is set", async () => {
    const { buildApp } = await import("../../src/app");
    const { createLogger } = await import("../../src/lib/logger");
    const app = buildApp({ services: t.services, logger: createLogger("silent"), publicBaseUrl: "https://api.acme.example/v" });
    const csp = (await request(app).get("/docs").expect(200)).headers["content-security-policy"];
    expect(csp).toContain("connect-src 'self' https://api.acme.example");
  });
});
