import request from "supertest";
import { buildApp } from "../../src/app";
import { AUTH_FAILURE_WINDOW_SECONDS, DEFAULT_RATE_LIMITS, type RateLimitSettings } from "../../src/http/rate-limit/rate-limiters";
import { createLogger } from "../../src/lib/logger";
import { adminAuth, createWorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

// Refused credentials per client address, told apart through the trusted router's X-Forwarded-For.
const BUDGET = 5;
const SETTINGS: RateLimitSettings = { ...DEFAULT_RATE_LIMITS, authFailures: BUDGET };
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ trustProxy: 1, rateLimits: SETTINGS });
});
afterAll(() => t.close());

let nextAddress = 1;
/** An address no other test uses, so each test starts with the whole budget. */
const freshAddress = () => `198.51.100.${nextAddress++}`;

const BAD_KEY = { Authorization: "Bearer wsi_not_a_key_of_this_server" };
const briefing = (address: string, auth: { Authorization: string }, app = t.app) =>
  request(app).get("/api/v1/briefing").set(auth).set("X-Forwarded-For", address);
const mcpCall = (address: string, auth: { Authorization: string }) =>
  request(t.app)
    .post("/mcp")
    .set(auth)
    .set("X-Forwarded-For", address)
    .set("Accept", "application/json, text/event-stream")
    .send({ jsonrpc: "2.0", id: 1, method: "tools/list" });
const listKeys = (address: string, auth: { Authorization: string }, workspaceId: string) =>
  request(t.app).get(`/admin/v1/workspaces/${workspaceId}/keys`).set(auth).set("X-Forwarded-For", address);

async function spendBudget(address: string): Promise<void> {
  for (let i = 0; i < BUDGET; i++) expect((await briefing(address, BAD_KEY)).status).toBe(401);
}

/** Counts the key table's lookups by hash (the real query runs; only its calls are counted). */
function countKeyLookups(): { readonly count: number; restore(): void } {
  const findFirst = jest.spyOn(t.database.prisma.apiKey, "findFirst");
  return {
    get count() {
      return findFirst.mock.calls.filter(([args]) => (args?.where as { hash?: unknown } | undefined)?.hash !== undefined).length;
    },
    restore: () => findFirst.mockRestore(),
  };
}

function expectRefusedForFailures(res: request.Response): void {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({
    error: expect.stringMatching(
      new RegExp(`^Too many failed authentications from your address: the limit is ${BUDGET} per ${AUTH_FAILURE_WINDOW_SECONDS} s; retry after \\d+ s$`),
    ),
    code: "rate_limited",
  });
  expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
  expect(res.headers["ratelimit-policy"]).toMatch(new RegExp(`^"auth-failures"; q=${BUDGET}; w=${AUTH_FAILURE_WINDOW_SECONDS}; pk=:[A-Za-z0-9+/=]+:$`));
  expect(res.headers.ratelimit).toMatch(/^"auth-failures"; r=0; t=\d+$/);
}

describe("refused API keys per client address on /api/v1", () => {
  it("answers 429 with Retry-After and the RateLimit fields once an address has spent its budget of refused keys", async () => {
    const address = freshAddress();
    await spendBudget(address);
    expectRefusedForFailures(await briefing(address, BAD_KEY));
  });

  it("answers each refusal within the budget with 401 and no RateLimit fields", async () => {
    const res = await briefing(freshAddress(), BAD_KEY);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: "Invalid API key", code: "unauthorized" });
    expect(res.headers.ratelimit).toBeUndefined();
  });

  it("refuses an address over its budget without looking the key up", async () => {
    const address = freshAddress();
    const lookups = countKeyLookups();
    try {
      await spendBudget(address);
      expect(lookups.count).toBe(BUDGET);
      for (let i = 0; i < 10; i++) expect((await briefing(address, BAD_KEY)).status).toBe(429);
      expect(lookups.count).toBe(BUDGET);
    } finally {
      lookups.restore();
    }
  });

  it("counts revoked keys as refusals", async () => {
    const address = freshAddress();
    const ws = await createWorkspaceWithKey(t.services);
    await request(t.app).delete(`/admin/v1/keys/${ws.keyId}`).set(adminAuth(t.adminToken)).expect(204);
    for (let i = 0; i < BUDGET; i++) expect((await briefing(address, ws.auth)).status).toBe(401);
    expect((await briefing(address, ws.auth)).status).toBe(429);
  });

  it("never counts requests with a valid key", async () => {
    const address = freshAddress();
    const ws = await createWorkspaceWithKey(t.services);
    for (let i = 0; i < BUDGET - 1; i++) expect((await briefing(address, BAD_KEY)).status).toBe(401);
    for (let i = 0; i < 3 * BUDGET; i++) expect((await briefing(address, ws.auth)).status).toBe(200);
    expect((await briefing(address, BAD_KEY)).status).toBe(401);
    expect((await briefing(address, BAD_KEY)).status).toBe(429);
  });

  it("does not count requests without credentials, which cost no lookup", async () => {
    const address = freshAddress();
    for (let i = 0; i < 2 * BUDGET; i++) {
      expect((await request(t.app).get("/api/v1/briefing").set("X-Forwarded-For", address)).status).toBe(401);
    }
    expect((await briefing(address, BAD_KEY)).status).toBe(401);
  });

  it("refuses a valid key from an address that has spent its budget, for the rest of the window", async () => {
    const address = freshAddress();
    const ws = await createWorkspaceWithKey(t.services);
    await spendBudget(address);
    expectRefusedForFailures(await briefing(address, ws.auth));
  });

  it("still serves a key it accepted moments ago from that address, without a lookup: one stale key does not lock out its neighbours", async () => {
    const address = freshAddress();
    const ws = await createWorkspaceWithKey(t.services);
    expect((await briefing(address, ws.auth)).status).toBe(200);
    await spendBudget(address);
    const lookups = countKeyLookups();
    try {
      expect((await briefing(address, ws.auth)).status).toBe(200);
      expect(lookups.count).toBe(0);
      expectRefusedForFailures(await briefing(address, BAD_KEY));
    } finally {
      lookups.restore();
    }
  });

  it("counts each client address on its own", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    await spendBudget(freshAddress());
    const other = freshAddress();
    expect((await briefing(other, BAD_KEY)).status).toBe(401);
    expect((await briefing(other, ws.auth)).status).toBe(200);
  });
});

describe("refused MCP bearer tokens", () => {
  it("answers 429 once an address has spent its budget on /mcp", async () => {
    const address = freshAddress();
    for (let i = 0; i < BUDGET; i++) {
      const res = await mcpCall(address, BAD_KEY);
      expect(res.status).toBe(401);
      expect(res.headers["www-authenticate"]).toMatch(/^Bearer /);
    }
    const lookups = countKeyLookups();
    try {
      expectRefusedForFailures(await mcpCall(address, BAD_KEY));
      expect(lookups.count).toBe(0);
    } finally {
      lookups.restore();
    }
  });

  it("shares the budget with /api/v1", async () => {
    const address = freshAddress();
    await spendBudget(address);
    expect((await mcpCall(address, BAD_KEY)).status).toBe(429);
  });
});

describe("wrong admin tokens", () => {
  it("have a budget of their own: refused API keys do not lock the admin API out, nor the other way round", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    const keysSpent = freshAddress();
    await spendBudget(keysSpent);
    expect((await listKeys(keysSpent, adminAuth(t.adminToken), ws.workspaceId)).status).toBe(200);
    const adminSpent = freshAddress();
    for (let i = 0; i < BUDGET; i++) expect((await listKeys(adminSpent, { Authorization: "Bearer not-the-admin-token" }, ws.workspaceId)).status).toBe(401);
    expect((await listKeys(adminSpent, { Authorization: "Bearer not-the-admin-token" }, ws.workspaceId)).status).toBe(429);
    expect((await briefing(adminSpent, BAD_KEY)).status).toBe(401);
  });

  it("answers 429 once an address has spent its budget, even to the right token, and counts each address on its own", async () => {
    const address = freshAddress();
    const ws = await createWorkspaceWithKey(t.services);
    const wrong = adminAuth("not-the-admin-token");
    for (let i = 0; i < BUDGET; i++) expect((await listKeys(address, wrong, ws.workspaceId)).status).toBe(401);
    expectRefusedForFailures(await listKeys(address, wrong, ws.workspaceId));
    expect((await listKeys(address, adminAuth(t.adminToken), ws.workspaceId)).status).toBe(429);
    expect((await listKeys(freshAddress(), adminAuth(t.adminToken), ws.workspaceId)).status).toBe(200);
  });
});

describe("shared counters in the database", () => {
  it("counts refusals in two apps on one database against one budget", async () => {
    const logger = createLogger("silent");
    const [first, second] = [1, 2].map(() => buildApp({ services: t.services, logger, trustProxy: 1, rateLimits: { ...SETTINGS, shared: true } }));
    const address = freshAddress();
    for (let i = 0; i < BUDGET; i++) expect((await briefing(address, BAD_KEY, i % 2 === 0 ? first! : second!)).status).toBe(401);
    // The app that counted the last refusal knows at once; the other learns it at its next refusal.
    expect((await briefing(address, BAD_KEY, first!)).status).toBe(429);
    expect((await briefing(address, BAD_KEY, second!)).status).toBe(401);
    expect((await briefing(address, BAD_KEY, second!)).status).toBe(429);
  });
});
