import request from "supertest";
import { DEFAULT_RATE_LIMITS } from "../../src/http/rate-limit/rate-limiters";
import { createHousekeeping } from "../../src/jobs/housekeeping";
import { createLogger } from "../../src/lib/logger";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;

beforeAll(async () => {
  // Behind a proxy that names the client's address, so that each test can register from its own.
  t = await createTestApp({ trustProxy: true, rateLimits: { ...DEFAULT_RATE_LIMITS, signIn: 1_000, registrations: 3 }, maxOAuthClients: 4 });
});
afterAll(() => t.close());

const client = (overrides: Record<string, unknown> = {}) => ({
  client_name: "Registration check",
  redirect_uris: ["https://connector.example/callback"],
  grant_types: ["authorization_code", "refresh_token"],
  response_types: ["code"],
  token_endpoint_auth_method: "none",
  ...overrides,
});

let address = 10;
const register = (body: unknown, from = `203.0.113.${address}`) =>
  request(t.app).post("/oauth/register").set("X-Forwarded-For", from).set("Content-Type", "application/json").send(JSON.stringify(body));

beforeEach(() => {
  address += 1;
});

describe("dynamic client registration (RFC 7591)", () => {
  it("registers a public client, which is forgotten after a day unless someone approves it", async () => {
    const res = await register(client()).expect(201);
    expect(res.body).toMatchObject({ client_id: expect.any(String), client_name: "Registration check", token_endpoint_auth_method: "none" });
    const row = await t.database.prisma.oAuthRecord.findFirst({ where: { kind: "Client", key: res.body.client_id } });
    const hours = (row!.expiresAt!.getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    // Not stored as issued: only a digest of the registration access token is.
    expect(JSON.stringify(await t.database.prisma.oAuthRecord.findMany())).not.toContain(res.body.registration_access_token);
  });

  it("refuses a body larger than 8 KB with 413 in the OAuth error format", async () => {
    const res = await register(client({ client_name: "x".repeat(9_000) })).expect(413);
    expect(res.body).toEqual({ error: "invalid_client_metadata", error_description: "The registration body is larger than 8192 bytes" });
  });

  it("refuses more than five redirect URIs", async () => {
    const uris = Array.from({ length: 6 }, (_, i) => `https://connector.example/callback/${i}`);
    const res = await register(client({ redirect_uris: uris })).expect(400);
    expect(res.body).toEqual({ error: "invalid_redirect_uri", error_description: "redirect_uris: at most 5" });
  });

  it("refuses a client name longer than 200 characters", async () => {
    const res = await register(client({ client_name: "n".repeat(201) })).expect(400);
    expect(res.body.error).toBe("invalid_client_metadata");
    expect(res.body.error_description).toMatch(/^client_name:/);
  });

  it("refuses a body that is not JSON", async () => {
    const res = await request(t.app).post("/oauth/register").set("X-Forwarded-For", `203.0.113.${address}`).set("Content-Type", "application/json").send("{not json").expect(400);
    expect(res.body.error).toBe("invalid_client_metadata");
  });

  it("answers 429 past the registrations an address may make in an hour", async () => {
    const from = `198.51.100.${address}`;
    await t.database.prisma.oAuthRecord.deleteMany({ where: { kind: "Client" } });
    for (let i = 0; i < 3; i += 1) await register(client(), from).expect(201);
    const refused = await register(client(), from).expect(429);
    expect(refused.headers["retry-after"]).toBeDefined();
    expect(refused.body.error).toBe("temporarily_unavailable");
    expect(refused.body.error_description).toMatch(/client registrations/);
  });

  it("answers 503 once the server holds as many clients as it accepts, and registers again when expired ones are purged", async () => {
    await t.database.prisma.oAuthRecord.deleteMany({ where: { kind: "Client" } });
    for (let i = 0; i < 4; i += 1) await register(client(), `192.0.2.${i}`).expect(201);
    const refused = await register(client(), "192.0.2.200").expect(503);
    expect(refused.body.error).toBe("temporarily_unavailable");

    await t.database.prisma.oAuthRecord.updateMany({ where: { kind: "Client" }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const housekeeping = createHousekeeping({ db: t.database.prisma, clock: { now: () => new Date() }, logger: createLogger("silent") });
    expect((await housekeeping.runOnce()).expiredOAuthRecords).toBeGreaterThanOrEqual(4);
    await register(client(), "192.0.2.201").expect(201);
  });
});
