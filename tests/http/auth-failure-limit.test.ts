import request from "supertest";
import { buildApp } from "../../src/app";
import { AUTH_FAILURE_WINDOW_SECONDS, DEFAULT_AUTH_FAILURE_LIMIT, DEFAULT_RATE_LIMITS, DEFAULT_SIGN_IN_LIMIT, type RateLimitSettings } from "../../src/http/rate-limit/rate-limiters";
import { createLogger } from "../../src/lib/logger";
import { createReviewer, csrfFrom } from "../support/console";
import { adminAuth, createWorkspaceWithKey } from "../support/factories";
import { MCP_HEADERS } from "../support/mcp-client";
import { InMemoryOAuthProvider } from "../support/oauth-client";
import { oauthDance } from "../support/oauth-dance";
import { startOAuthScene, type OAuthScene } from "../support/oauth-scene";
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

/** Counts the look-ups of keys by the digest of their secret (the real query runs; only its calls are counted). */
function countKeyLookups(): { readonly count: number; restore(): void } {
  // A key is found by its digest in api_key_digests first (api-key.repository.ts).
  const findUnique = jest.spyOn(t.database.prisma.apiKeyDigest, "findUnique");
  return {
    get count() {
      return findUnique.mock.calls.filter(([args]) => (args?.where as { hash?: unknown } | undefined)?.hash !== undefined).length;
    },
    restore: () => findUnique.mockRestore(),
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

  it("answers a flood of unknown keys past the budget with 429, each for the one lookup that tells it from a valid key", async () => {
    const address = freshAddress();
    const lookups = countKeyLookups();
    try {
      await spendBudget(address);
      for (let i = 0; i < 3 * BUDGET; i++) expectRefusedForFailures(await briefing(address, { Authorization: `Bearer wsi_unknown_${i}` }));
      expect(lookups.count).toBe(4 * BUDGET);
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

  it("serves a valid key from an address that has spent its budget, one it has never seen too, and still refuses the next unknown key", async () => {
    const address = freshAddress();
    await spendBudget(address);
    expectRefusedForFailures(await briefing(address, BAD_KEY));
    // Made after the address was spent: this process has never looked it up.
    const ws = await createWorkspaceWithKey(t.services);
    const res = await briefing(address, ws.auth);
    expect(res.status).toBe(200);
    expect(res.headers["retry-after"]).toBeUndefined();
    expectRefusedForFailures(await briefing(address, BAD_KEY));
    expect((await briefing(address, ws.auth)).status).toBe(200);
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
    expectRefusedForFailures(await mcpCall(address, BAD_KEY));
  });

  it("serves a valid key on /mcp from an address that has spent its budget", async () => {
    const address = freshAddress();
    const ws = await createWorkspaceWithKey(t.services);
    await spendBudget(address);
    expect((await mcpCall(address, ws.auth)).status).toBe(200);
    expect((await mcpCall(address, BAD_KEY)).status).toBe(429);
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

  it("answers 429 to wrong tokens once an address has spent its budget, and the right token at once", async () => {
    const address = freshAddress();
    const ws = await createWorkspaceWithKey(t.services);
    const wrong = adminAuth("not-the-admin-token");
    for (let i = 0; i < BUDGET; i++) expect((await listKeys(address, wrong, ws.workspaceId)).status).toBe(401);
    expectRefusedForFailures(await listKeys(address, wrong, ws.workspaceId));
    expect((await listKeys(address, adminAuth(t.adminToken), ws.workspaceId)).status).toBe(200);
    expectRefusedForFailures(await listKeys(address, wrong, ws.workspaceId));
  });
});

describe("shared counters in the database", () => {
  it("counts refusals in two apps on one database against one budget", async () => {
    const logger = createLogger("silent");
    const [first, second] = [1, 2].map(() => buildApp({ services: t.services, logger, trustProxy: 1, rateLimits: { ...SETTINGS, shared: true } }));
    const address = freshAddress();
    for (let i = 0; i < BUDGET; i++) expect((await briefing(address, BAD_KEY, i % 2 === 0 ? first! : second!)).status).toBe(401);
    // Each app learns it from the shared count, whichever counted the last refusal.
    expect((await briefing(address, BAD_KEY, first!)).status).toBe(429);
    expect((await briefing(address, BAD_KEY, second!)).status).toBe(429);
    const ws = await createWorkspaceWithKey(t.services);
    expect((await briefing(address, ws.auth, second!)).status).toBe(200);
  });
});

describe("the console's sign-in", () => {
  /** One attempt through the form, from an address, as a browser sends it. */
  async function signInFrom(address: string, email: string, password: string): Promise<number> {
    const agent = request.agent(t.app);
    const form = await agent.get("/console/sign-in").set("X-Forwarded-For", address).expect(200);
    const res = await agent.post("/console/sign-in").set("X-Forwarded-For", address).type("form").send({ _csrf: csrfFrom(form.text), email, password });
    return res.status;
  }

  it("gives a successful sign-in its attempt back, so that colleagues behind one address do not spend each other's budget", async () => {
    const address = freshAddress();
    const { workspaceId } = await createWorkspaceWithKey(t.services);
    const reviewer = await createReviewer(t, workspaceId);
    for (let i = 0; i < DEFAULT_SIGN_IN_LIMIT + 2; i++) expect(await signInFrom(address, reviewer.email, reviewer.password)).toBe(303);
  });

  it("refuses every attempt from an address past its failed sign-ins, the right password too: a password can be guessed", async () => {
    const address = freshAddress();
    const { workspaceId } = await createWorkspaceWithKey(t.services);
    const reviewer = await createReviewer(t, workspaceId);
    // Other accounts each, so that no account's own slowdown is what refuses.
    for (let i = 0; i < DEFAULT_SIGN_IN_LIMIT; i++) expect(await signInFrom(address, `nobody${i}@acme.test`, "wrong password")).toBe(401);
    expect(await signInFrom(address, reviewer.email, reviewer.password)).toBe(429);
    expect(await signInFrom(freshAddress(), reviewer.email, reviewer.password)).toBe(303);
  });
});

describe("with the default budget: refusals of every kind from one address never lock out its valid credentials", () => {
  // A hosted connector platform's shared egress: one address, many users, one of them with stale
  // or made-up credentials. Real OAuth tokens, through the browser's consent.
  let scene: OAuthScene;
  let valid: { key: string; workspaceId: string; accessToken: string; revokedToken: string };
  const platform = "192.0.2.77";

  beforeAll(async () => {
    scene = await startOAuthScene({ trustProxy: 1, rateLimits: DEFAULT_RATE_LIMITS });
    const { t: app, browser, site, server } = scene;
    const ws = await createWorkspaceWithKey(app.services);
    const reviewer = await createReviewer(app, ws.workspaceId);
    const dance = oauthDance({ browser, site, connectorUrl: new URL("/mcp", server.origin), reviewer, signedIn: await scene.signedIn(reviewer) });
    const live = new InMemoryOAuthProvider(site.redirectUri, { client_name: "Live connector" });
    const revoked = new InMemoryOAuthProvider(site.redirectUri, { client_name: "Revoked connector" });
    await (await dance.connect(live)).close();
    await (await dance.connect(revoked)).close();
    const apps = await request(app.app).get(`/admin/v1/workspaces/${ws.workspaceId}/connected-apps`).set(adminAuth(app.adminToken)).expect(200);
    const revokedApp = (apps.body.items as Array<{ id: string; clientName: string }>).find((item) => item.clientName === "Revoked connector")!;
    await request(app.app).delete(`/admin/v1/workspaces/${ws.workspaceId}/connected-apps/${revokedApp.id}`).set(adminAuth(app.adminToken)).expect(204);
    valid = { key: ws.key, workspaceId: ws.workspaceId, accessToken: live.saved!.access_token, revokedToken: revoked.saved!.access_token };
  }, 120_000);
  afterAll(() => scene?.close());

  const bearer = (credential: string) => ({ Authorization: `Bearer ${credential}` });
  const send = (path: string, credential: string, init: RequestInit = {}) =>
    fetch(`${scene.server.origin}${path}`, { ...init, headers: { ...(init.headers as Record<string, string>), ...bearer(credential), "X-Forwarded-For": platform } });
  const mcpInitialize = (credential: string) =>
    send("/mcp", credential, {
      method: "POST",
      headers: MCP_HEADERS,
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "curl", version: "1" } } }),
    });

  it("serves the valid key, access token and admin token at once after more than the budget of refusals, and still answers the next unknown credential 429", async () => {
    const refusals: number[] = [];
    for (let i = 0; i < 12; i++) refusals.push((await send("/api/v1/briefing", `wsi_unknown_${i}`)).status);
    for (let i = 0; i < 12; i++) refusals.push((await mcpInitialize(i % 2 === 0 ? valid.revokedToken : `unknown-access-token-${i}`)).status);
    for (let i = 0; i < 12; i++) refusals.push((await send("/mcp", `wsi_unknown_mcp_${i}`, { method: "POST", headers: MCP_HEADERS, body: "{}" })).status);
    expect(refusals.slice(0, DEFAULT_AUTH_FAILURE_LIMIT)).toEqual(Array(DEFAULT_AUTH_FAILURE_LIMIT).fill(401));
    expect(refusals.slice(DEFAULT_AUTH_FAILURE_LIMIT)).toEqual(Array(refusals.length - DEFAULT_AUTH_FAILURE_LIMIT).fill(429));
    const adminRefusals: number[] = [];
    for (let i = 0; i <= DEFAULT_AUTH_FAILURE_LIMIT; i++) adminRefusals.push((await send(`/admin/v1/workspaces/${valid.workspaceId}/keys`, `not-the-admin-token-${i}`)).status);
    expect(adminRefusals.at(-1)).toBe(429);

    expect((await send("/api/v1/briefing", valid.key)).status).toBe(200);
    expect((await mcpInitialize(valid.key)).status).toBe(200);
    expect((await mcpInitialize(valid.accessToken)).status).toBe(200);
    expect((await send(`/admin/v1/workspaces/${valid.workspaceId}/keys`, scene.t.adminToken)).status).toBe(200);

    expect((await send("/api/v1/briefing", "wsi_one_more_unknown")).status).toBe(429);
    expect((await mcpInitialize("one-more-unknown-access-token")).status).toBe(429);
    expect((await send(`/admin/v1/workspaces/${valid.workspaceId}/keys`, "still-not-the-admin-token")).status).toBe(429);
  });
});
