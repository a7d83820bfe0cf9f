import { request as httpRequest } from "node:http";
import request from "supertest";
import { DEFAULT_RATE_LIMITS } from "../../src/http/rate-limit/rate-limiters";
import { listen } from "../support/browser";
import { createTestApp, type TestApp } from "../support/test-app";

/** A GET with the Host header a client chose, over a real connection to the listening app. */
function getWithHost(origin: string, path: string, host: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, headers: { host } }, (res) => {
      let text = "";
      res.on("data", (chunk) => (text += String(chunk)));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the authorization server without PUBLIC_BASE_URL", () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let port: string;
  beforeAll(async () => {
    // The metadata's own per-address budget is not what this describes.
    t = await createTestApp({ rateLimits: { ...DEFAULT_RATE_LIMITS, perAddress: 10_000 } });
    server = await listen(t.app);
    port = new URL(server.origin).port;
  });
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  it("refuses 60 distinct foreign Hosts with 403 naming the Host, and builds them nothing", async () => {
    const hosts = [
      ...Array.from({ length: 57 }, (_, i) => `attacker-${i}.example:${port}`),
      // Loopback names on another port than the one the request reached, and a look-alike.
      `localhost:${Number(port) + 1}`,
      "127.0.0.1",
      `localhost.attacker.example:${port}`,
    ];
    for (const host of hosts) {
      const metadata = await getWithHost(server.origin, "/.well-known/oauth-authorization-server/oauth", host);
      expect(metadata.status).toBe(403);
      expect(metadata.body).toEqual({ error: expect.stringContaining(`does not answer at Host ${JSON.stringify(host)}`), code: "forbidden" });
      expect((await getWithHost(server.origin, "/.well-known/oauth-protected-resource/mcp", host)).status).toBe(403);
      expect((await getWithHost(server.origin, "/oauth/jwks", host)).status).toBe(403);
    }
    expect((await getWithHost(server.origin, "/oauth/jwks", hosts[0]!)).body.error).toMatch(/set PUBLIC_BASE_URL/);
  });

  it("names each loopback name on the listening port as its own issuer, all signing with the process's one key", async () => {
    const kids = new Set<unknown>();
    for (const name of ["localhost", "127.0.0.1", "[::1]", "LOCALHOST"]) {
      const host = `${name}:${port}`;
      const metadata = await getWithHost(server.origin, "/.well-known/oauth-authorization-server/oauth", host);
      expect(metadata.status).toBe(200);
      expect(metadata.body.issuer).toBe(`http://${name.toLowerCase()}:${port}/oauth`);
      const resource = await getWithHost(server.origin, "/.well-known/oauth-protected-resource/mcp", host);
      expect(resource.body).toMatchObject({ resource: `http://${name.toLowerCase()}:${port}/mcp`, authorization_servers: [`http://${name.toLowerCase()}:${port}/oauth`] });
      const jwks = await getWithHost(server.origin, "/oauth/jwks", host);
      expect(jwks.status).toBe(200);
      for (const key of jwks.body.keys as Array<{ kid: string }>) kids.add(key.kid);
    }
    expect(kids.size).toBe(1);
  });
});

describe("the authorization server with PUBLIC_BASE_URL", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ publicBaseUrl: "https://wsi.example.com" });
  });
  afterAll(() => t?.close());

  it("names the configured issuer whatever Host a request came with", async () => {
    for (const host of ["attacker.example", "localhost:1"]) {
      const res = await request(t.app).get("/.well-known/oauth-authorization-server/oauth").set("Host", host).expect(200);
      expect(res.body.issuer).toBe("https://wsi.example.com/oauth");
    }
  });
});

describe("the metadata's rate limit", () => {
  const BUDGET = 4;
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ trustProxy: 1, rateLimits: { ...DEFAULT_RATE_LIMITS, perAddress: BUDGET } });
  });
  afterAll(() => t?.close());

  const METADATA = ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-authorization-server/oauth", "/oauth/.well-known/openid-configuration", "/oauth/jwks"];
  const get = (path: string, address: string) => request(t.app).get(path).set("X-Forwarded-For", address);

  it("counts the metadata and JWKS per client address and answers 429 with Retry-After and the RateLimit fields past the budget", async () => {
    const address = "198.51.100.60";
    for (const path of METADATA) expect((await get(path, address)).status).toBe(200);
    for (const path of METADATA) {
      const res = await get(path, address);
      expect(res.status).toBe(429);
      expect(res.body).toEqual({ error: expect.stringMatching(/^Too many requests from your address: the limit is 4 per 60 s; retry after \d+ s$/), code: "rate_limited" });
      expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
      expect(res.headers["ratelimit-policy"]).toMatch(/^"oauth-metadata"; q=4; w=60;/);
    }
    expect((await get(METADATA[0]!, "198.51.100.61")).status).toBe(200);
  });

  it("keeps its own count, so discovery does not spend the budget of the other routes without a key", async () => {
    const address = "198.51.100.62";
    for (let i = 0; i < BUDGET; i++) expect((await get("/oauth/jwks", address)).status).toBe(200);
    expect((await get("/oauth/jwks", address)).status).toBe(429);
    expect((await get("/api/v1/openapi.json", address)).status).toBe(200);
  });
});
