import request from "supertest";
import { buildApp } from "../../src/app";
import { buildOpenApiDocument } from "../../src/http/openapi-document";
import { DEFAULT_SIGN_IN_LIMIT } from "../../src/http/rate-limit/rate-limiters";
import { isRateLimited } from "../../src/http/route";
import { createLogger } from "../../src/lib/logger";
import { apiV1DocumentInfo, apiV1Routes } from "../../src/routes/api-v1";
import { getHealthRoute } from "../../src/routes/health/get-health";
import { createKey, createWorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

const WINDOW = 60;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ rateLimits: { windowSeconds: WINDOW, perKey: 3, perAddress: 2 } });
});
afterAll(() => t.close());

const briefing = (app: TestApp["app"], auth: { Authorization: string }) => request(app).get("/api/v1/briefing").set(auth);

describe("per-key rate limit on /api/v1", () => {
  it("sends the RateLimit-Policy and RateLimit fields on every answer", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    const res = await briefing(t.app, ws.auth);
    expect(res.status).toBe(200);
    expect(res.headers["ratelimit-policy"]).toMatch(new RegExp(`^"per-key"; q=3; w=${WINDOW}; pk=:[A-Za-z0-9+/=]+:$`));
    expect(res.headers.ratelimit).toMatch(/^"per-key"; r=2; t=(60|59)$/);
  });

  it("answers 429 {error, code: rate_limited} with Retry-After once a key is over its limit", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    for (let i = 0; i < 3; i++) expect((await briefing(t.app, ws.auth)).status).toBe(200);
    const res = await briefing(t.app, ws.auth);
    expect(res.status).toBe(429);
    expect(res.body).toEqual({
      error: expect.stringMatching(/^Too many requests from this API key: the limit is 3 per 60 s; retry after \d+ s$/),
      code: "rate_limited",
    });
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
    expect(res.headers.ratelimit).toMatch(/^"per-key"; r=0; t=\d+$/);
  });

  it("counts each key on its own budget", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    for (let i = 0; i < 4; i++) await briefing(t.app, ws.auth);
    const other = await createKey(t.services, ws.workspaceId);
    expect((await briefing(t.app, other.auth)).status).toBe(200);
  });

  it("answers 401, not 429, to a request without a valid key", async () => {
    const res = await request(t.app).get("/api/v1/briefing").set({ Authorization: "Bearer wsi_nope" });
    expect(res.status).toBe(401);
    expect(res.headers.ratelimit).toBeUndefined();
  });
});

describe("per-address rate limit on routes without a key", () => {
  it("answers 429 for the OpenAPI document once an address is over its limit", async () => {
    const app = t.app;
    expect((await request(app).get("/api/v1/openapi.json")).status).toBe(200);
    expect((await request(app).get("/api/v1/openapi.json")).headers.ratelimit).toMatch(/^"per-address"; r=0;/);
    const res = await request(app).get("/api/v1/openapi.json");
    expect(res.status).toBe(429);
    expect(res.body.code).toBe("rate_limited");
    expect(res.body.error).toMatch(/^Too many requests from your address/);
    expect(res.headers["retry-after"]).toBeDefined();
  });

  it("leaves /healthz unlimited", async () => {
    for (let i = 0; i < 4; i++) expect((await request(t.app).get("/healthz")).status).toBe(200);
  });
});

describe("the same limits on /mcp and the console's sign-in", () => {
  const mcpCall = (auth: { Authorization: string }) =>
    request(t.app)
      .post("/mcp")
      .set(auth)
      .set("Accept", "application/json, text/event-stream")
      .send({ jsonrpc: "2.0", id: 1, method: "tools/list" });

  it("counts MCP calls against the key's per-key budget and answers 429 past it", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    for (let i = 0; i < 3; i++) expect((await mcpCall(ws.auth)).status).toBe(200);
    const res = await mcpCall(ws.auth);
    expect(res.status).toBe(429);
    expect(res.body.code).toBe("rate_limited");
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
  });

  it("answers 429 to an address past the default number of sign-in attempts, whatever each attempt's outcome", async () => {
    for (let i = 0; i < DEFAULT_SIGN_IN_LIMIT; i++) {
      // Without the form's anti-forgery cookie each attempt is refused, and still counted.
      expect((await request(t.app).post("/console/sign-in").type("form").send({ email: "a@b.example", password: "x" })).status).toBe(403);
    }
    const res = await request(t.app).post("/console/sign-in").type("form").send({ email: "a@b.example", password: "x" });
    expect(res.status).toBe(429);
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
  });
});

describe("shared counters in the database", () => {
  it("counts requests to two apps on one database against one limit", async () => {
    const settings = { windowSeconds: WINDOW, perKey: 3, perAddress: 2, shared: true };
    const logger = createLogger("silent");
    const [first, second] = [1, 2].map(() => buildApp({ services: t.services, logger, rateLimits: settings }));
    const ws = await createWorkspaceWithKey(t.services);
    expect((await briefing(first!, ws.auth)).status).toBe(200);
    expect((await briefing(second!, ws.auth)).status).toBe(200);
    expect((await briefing(first!, ws.auth)).headers.ratelimit).toMatch(/^"per-key"; r=0;/);
    const res = await briefing(second!, ws.auth);
    expect(res.status).toBe(429);
    const [counter] = await t.database.prisma.rateLimitCounter.findMany({ where: { key: `key:${ws.keyId}` } });
    expect(counter?.hits).toBe(4);
  });
});

describe("the OpenAPI document", () => {
  it("documents the 429 response and the rate-limit header fields of every limited operation", async () => {
    const document = buildOpenApiDocument(apiV1Routes(), apiV1DocumentInfo()) as unknown as {
      paths: Record<string, Record<string, { responses: Record<string, { headers: object; content?: object }> }>>;
    };
    const search = document.paths["/api/v1/artifacts"]!.get!.responses;
    expect(Object.keys(search["429"]!.headers)).toEqual(expect.arrayContaining(["Retry-After", "RateLimit", "RateLimit-Policy"]));
    expect(search["429"]!.content).toHaveProperty(["application/json"]);
    expect(Object.keys(search["200"]!.headers)).toEqual(expect.arrayContaining(["RateLimit", "RateLimit-Policy"]));
    expect(isRateLimited(getHealthRoute)).toBe(false);
  });
});
