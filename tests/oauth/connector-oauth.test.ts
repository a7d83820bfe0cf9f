import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2, UnauthorizedError as UnauthorizedErrorV2 } from "@modelcontextprotocol/client";
import { discoverAuthorizationServerMetadata, exchangeAuthorization, refreshAuthorization } from "@modelcontextprotocol/sdk/client/auth.js";
import type { Browser, BrowserContext } from "playwright-core";
import { READ_SCOPES, SCOPE_DESCRIPTIONS } from "../../src/auth/scopes";
import { DEFAULT_RATE_LIMITS } from "../../src/http/rate-limit/rate-limiters";
import { validatedArtifact } from "../support/artifacts";
import { listen } from "../support/browser";
import { createReviewer } from "../support/console";
import { createKey, createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { callTool, textJson, MCP_HEADERS } from "../support/mcp-client";
import { InMemoryOAuthProvider, startConnectorSite } from "../support/oauth-client";
import { startOAuthScene, type OAuthScene } from "../support/oauth-scene";
import { oauthDance, type Consent, type OAuthDance } from "../support/oauth-dance";
import { capturingLogger } from "../support/log-capture";
import type { TestApp } from "../support/test-app";
import { waitFor } from "../support/wait-for";

let t: TestApp;
const logs = capturingLogger();
let browser: Browser;
let server: Awaited<ReturnType<typeof listen>>;
let site: Awaited<ReturnType<typeof startConnectorSite>>;
let home: WorkspaceWithKey;
let other: WorkspaceWithKey;
let homeArtifact: string;
let otherArtifact: string;
let reviewer: Awaited<ReturnType<typeof createReviewer>>;
let signedIn: Awaited<ReturnType<BrowserContext["storageState"]>>;

const connectorUrl = () => new URL("/mcp", server.origin);
const issuer = () => `${server.origin}/oauth`;

let scene: OAuthScene;
beforeAll(async () => {
  // Every test registers a client from the same address: more than an address's hourly budget.
  scene = await startOAuthScene({ logger: logs.logger, rateLimits: { ...DEFAULT_RATE_LIMITS, signIn: 1_000, registrations: 1_000 } });
  ({ t, browser, server, site } = scene);
  home = await createWorkspaceWithKey(t.services, { workspaceName: "Home" });
  other = await createWorkspaceWithKey(t.services, { workspaceName: "Other" });
  homeArtifact = await validatedArtifact(t, home.auth, { summary: "Lisbon kiosk footfall rose in July" });
  otherArtifact = await validatedArtifact(t, other.auth, { summary: "Porto kiosk footfall fell in July" });
  reviewer = await createReviewer(t, home.workspaceId);
  await t.services.reviewers.add(other.workspaceId, { email: reviewer.email, name: "Reviewer", password: reviewer.password });
  signedIn = await scene.signedIn(reviewer);
  dance = oauthDance({ browser, site, connectorUrl: connectorUrl(), reviewer, signedIn });
});
afterAll(() => scene?.close());

let dance: OAuthDance;
const consentInBrowser = (url: URL, consent?: Consent) => dance.consentInBrowser(url, consent);
const startConnecting = (provider: InMemoryOAuthProvider) => dance.startConnecting(provider);
const connect = (provider: InMemoryOAuthProvider, consent?: Consent) => dance.connect(provider, consent);


/** One JSON-RPC message posted as an MCP client posts it, with a bearer credential. */
function post(url: URL | string, credential: string | undefined, body: unknown) {
  return fetch(url, {
    method: "POST",
    headers: { ...MCP_HEADERS, ...(credential ? { Authorization: `Bearer ${credential}` } : {}) },
    body: JSON.stringify(body),
  });
}

const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "curl", version: "1" } } };
const toolCall = (name: string, args: Record<string, unknown>) => ({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name, arguments: args } });

/** Registration and consent through the SDK and the browser, stopping at the code: what the token endpoint tests start from. */
async function authorizationCode(provider: InMemoryOAuthProvider, consent: Consent = {}): Promise<string> {
  const { callback } = await consentInBrowser(await startConnecting(provider), consent);
  const code = callback.searchParams.get("code");
  if (!code) throw new Error(`no code came back: ${callback.href}`);
  return code;
}

async function exchange(provider: InMemoryOAuthProvider, code: string, codeVerifier = provider.codeVerifier() as string) {
  return exchangeAuthorization(issuer(), {
    metadata: await discoverAuthorizationServerMetadata(issuer()),
    clientInformation: provider.client!,
    authorizationCode: code,
    codeVerifier,
    redirectUri: site.redirectUri,
    resource: connectorUrl(),
  });
}

async function refresh(provider: InMemoryOAuthProvider, refreshToken: string) {
  return refreshAuthorization(issuer(), {
    metadata: await discoverAuthorizationServerMetadata(issuer()),
    clientInformation: provider.client!,
    refreshToken,
    resource: connectorUrl(),
  });
}

describe("connecting a hosted connector through OAuth", () => {
  it("registers, signs in through the console, and then searches and fetches that workspace only", async () => {
    const provider = new InMemoryOAuthProvider(site.redirectUri);
    const { callback, visited } = await consentInBrowser(await startConnecting(provider), { signInOnTheWay: true, workspace: home.workspaceId });
    expect(callback.searchParams.get("iss")).toBe(issuer());
    expect(visited.some((url) => new URL(url).pathname === "/console/sign-in")).toBe(true);
    const client = await dance.finish(provider, callback);

    const found = textJson(await callTool(client, "search", { query: "kiosk footfall July" })) as { results: Array<{ id: string }> };
    expect(found.results.map((r) => r.id)).toEqual([homeArtifact]);
    expect(textJson(await callTool(client, "fetch", { id: homeArtifact }))).toMatchObject({ id: homeArtifact });
    const elsewhere = await callTool(client, "fetch", { id: otherArtifact });
    expect(elsewhere.isError).toBe(true);
    await client.close();
  });

  it("works the same with the SDK's 2.x client, which then speaks revision 2026-07-28", async () => {
    const provider = new InMemoryOAuthProvider(site.redirectUri, { client_name: "2.x client" });
    const newClient = () => new ClientV2({ name: "connector-tests", version: "2.0.0" }, { versionNegotiation: { mode: "auto" } });
    await expect(newClient().connect(new TransportV2(connectorUrl(), { authProvider: provider }))).rejects.toThrow(UnauthorizedErrorV2);
    const { callback } = await consentInBrowser(provider.authorizationUrl!, { workspace: home.workspaceId });
    // The 2.x client checks the callback's `iss` against the issuer it discovered (RFC 9207).
    await new TransportV2(connectorUrl(), { authProvider: provider }).finishAuth(callback.searchParams);
    const client = newClient();
    await client.connect(new TransportV2(connectorUrl(), { authProvider: provider }));
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const found = textJson(await callTool(client, "search", { query: "kiosk footfall July" })) as { results: Array<{ id: string }> };
    expect(found.results.map((r) => r.id)).toEqual([homeArtifact]);
    await client.close();
  });

  it("reaches consent without signing in again when the browser arrives cross-site with a console session", async () => {
    const provider = new InMemoryOAuthProvider(site.redirectUri);
    const { callback, visited } = await consentInBrowser(await startConnecting(provider));
    expect(callback.searchParams.get("code")).toBeTruthy();
    expect(visited.some((url) => new URL(url).pathname === "/console/sign-in")).toBe(false);
    // The cross-site arrival came without the SameSite=Strict cookie; the same-site repeat had it.
    expect(visited.some((url) => url.endsWith("?again"))).toBe(true);
  });

  it("sends access_denied back to the app when the person denies, and records no grant", async () => {
    const before = (await t.services.connectedApps.list(home.workspaceId)).length;
    const provider = new InMemoryOAuthProvider(site.redirectUri);
    const { callback } = await consentInBrowser(await startConnecting(provider), { decision: "deny" });
    expect(callback.searchParams.get("error")).toBe("access_denied");
    expect(callback.searchParams.get("code")).toBeNull();
    expect(await t.services.connectedApps.list(home.workspaceId)).toHaveLength(before);
  });

  it("shows an app's name as text, whatever it contains", async () => {
    const name = `<img src=x onerror="document.title='owned'">`;
    const provider = new InMemoryOAuthProvider(site.redirectUri, { client_name: name });
    const { consentText, callback } = await consentInBrowser(await startConnecting(provider), { decision: "deny" });
    expect(consentText).toContain(name);
    expect(callback.searchParams.get("error")).toBe("access_denied");
  });

  it("says in plain words what each read scope lets the app read, with the scope's name beside it", async () => {
    const provider = new InMemoryOAuthProvider(site.redirectUri, { client_name: "Scope reader" });
    const url = await startConnecting(provider);
    const context = await browser.newContext({ storageState: signedIn });
    try {
      const page = await context.newPage();
      await page.goto(site.startPage(url.href));
      await page.click("#connect");
      await page.waitForSelector("[data-section=consent]");
      // Each box is named, for the eye and for a screen reader, by its sentence and its scope's name.
      expect(await page.locator("input[name=scopes]").count()).toBe(READ_SCOPES.length);
      for (const scope of READ_SCOPES) {
        const box = page.getByRole("checkbox", { name: `${SCOPE_DESCRIPTIONS[scope]} ${scope}`, exact: true });
        expect(await box.getAttribute("value", { timeout: 2_000 })).toBe(scope);
      }
      // The same sentences as the API's document tells a developer.
      const published = (await (await fetch(`${server.origin}/api/v1/openapi.json`)).json()) as { components: { securitySchemes: { bearerAuth: { "x-scopes": Record<string, string> } } } };
      for (const scope of READ_SCOPES) expect(published.components.securitySchemes.bearerAuth["x-scopes"][scope]).toBe(SCOPE_DESCRIPTIONS[scope]);
    } finally {
      await context.close();
    }
  });

  it("shows the whole return address, scheme included, when it is not https", async () => {
    const provider = new InMemoryOAuthProvider(site.redirectUri, { client_name: "Loopback app" });
    const { consentText } = await consentInBrowser(await startConnecting(provider), { decision: "deny" });
    expect(site.redirectUri).toMatch(/^http:\/\/localhost:\d+\/callback$/);
    expect(consentText).toContain(site.redirectUri);
  });

  it("writes out the invisible and text-direction characters of an app registered before they were refused", async () => {
    const clientId = "registered-before-the-rule";
    await t.services.oauthStore.upsert("Client", clientId, {
      client_id: clientId,
      client_name: "Claude\u202egnp.exe",
      redirect_uris: [site.redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    });
    const url = new URL("/oauth/authorize", server.origin);
    url.search = new URLSearchParams({ client_id: clientId, response_type: "code", redirect_uri: site.redirectUri, code_challenge: "x".repeat(43), code_challenge_method: "S256", scope: "artifacts:read", resource: connectorUrl().href }).toString();
    const { consentText, callback } = await consentInBrowser(url, { decision: "deny" });
    expect(consentText).toContain("Connect “Claude[U+202E]gnp.exe”?");
    expect(consentText).not.toContain("\u202e");
    expect(callback.searchParams.get("error")).toBe("access_denied");
  });

  it("lists the grant as a connected app of the chosen workspace, with who granted it and its scopes", async () => {
    const provider = new InMemoryOAuthProvider(site.redirectUri, { client_name: "Listing check" });
    await connect(provider, { workspace: other.workspaceId, scopes: ["artifacts:read", "skills:read"] });
    const apps = await t.services.connectedApps.list(other.workspaceId);
    expect(apps.find((app) => app.clientName === "Listing check")).toMatchObject({ grantedBy: reviewer.email, scopes: ["artifacts:read", "skills:read"], redirectHost: site.redirectUri, revokedAt: null });
  });
});

describe("the token endpoint", () => {
  it("refuses a code with the wrong PKCE verifier, accepts the right one once, and revokes what it issued when the code comes again", async () => {
    const provider = new InMemoryOAuthProvider(site.redirectUri);
    const code = await authorizationCode(provider);
    await expect(exchange(provider, code, "x".repeat(64))).rejects.toThrow(/PKCE|grant/i);
    const tokens = await exchange(provider, code);
    expect((await post(connectorUrl(), tokens.access_token, initialize)).status).toBe(200);
    await expect(exchange(provider, code)).rejects.toThrow(/grant/i);
    expect((await post(connectorUrl(), tokens.access_token, initialize)).status).toBe(401);
  });

  it("rotates refresh tokens, and revokes the grant when an old one is used again", async () => {
    const provider = new InMemoryOAuthProvider(site.redirectUri, { client_name: "Rotation check" });
    const first = await exchange(provider, await authorizationCode(provider));
    const second = await refresh(provider, first.refresh_token!);
    expect(second.refresh_token).toBeTruthy();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await post(connectorUrl(), second.access_token, initialize)).status).toBe(200);

    await expect(refresh(provider, first.refresh_token!)).rejects.toThrow(/grant/i);
    await expect(refresh(provider, second.refresh_token!)).rejects.toThrow(/grant/i);
    expect((await post(connectorUrl(), second.access_token, initialize)).status).toBe(401);
    // The grant is marked revoked in the connected apps after the refusal, not before it answers.
    const revoked = async () => (await t.services.connectedApps.list(home.workspaceId)).find((a) => a.clientName === "Rotation check")?.revokedAt ?? null;
    expect(await waitFor(revoked, { what: "the reused grant marked revoked" })).not.toBeNull();
  });

  it("stores and logs no code, verifier or token, only digests", async () => {
    const provider = new InMemoryOAuthProvider(site.redirectUri);
    const code = await authorizationCode(provider);
    const tokens = await exchange(provider, code);
    const refreshed = await refresh(provider, tokens.refresh_token!);
    expect((await post(connectorUrl(), refreshed.access_token, initialize)).status).toBe(200);
    const stored = JSON.stringify(await t.database.prisma.oAuthRecord.findMany());
    const logged = JSON.stringify(logs.lines());
    expect(logs.lines().length).toBeGreaterThan(0);
    for (const secret of [code, provider.codeVerifier() as string, tokens.access_token, tokens.refresh_token!, refreshed.access_token, refreshed.refresh_token!]) {
      expect(stored).not.toContain(secret);
      expect(logged).not.toContain(secret);
    }
  });
});

describe("the authorization endpoint", () => {
  it("refuses a redirect URI that was not registered, without redirecting to it", async () => {
    const provider = new InMemoryOAuthProvider(site.redirectUri);
    const url = await startConnecting(provider);
    url.searchParams.set("redirect_uri", "http://localhost:1/elsewhere");
    const res = await fetch(url, { redirect: "manual" });
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(await res.text()).toMatch(/redirect_uri/);
  });

  /** What the authorization endpoint answers a browser that follows `url`, before anyone has acted on a consent page. */
  async function refusedOnOurOrigin(url: URL) {
    const res = await fetch(url, { redirect: "manual" });
    const page = await res.text();
    expect({ status: res.status, location: res.headers.get("location"), type: res.headers.get("content-type") }).toEqual({ status: 400, location: null, type: expect.stringMatching(/^text\/html/) });
    expect(page).toContain("you were not sent back to it");
    return page;
  }

  it("refuses an authorization request without PKCE on its own page, without redirecting to the app", async () => {
    const url = await startConnecting(new InMemoryOAuthProvider(site.redirectUri));
    url.searchParams.delete("code_challenge");
    url.searchParams.delete("code_challenge_method");
    const page = await refusedOnOurOrigin(url);
    expect(page).toContain("invalid_request");
    expect(page).toMatch(/PKCE/);
  });

  it("issues tokens for /mcp only, and says so on its own page", async () => {
    const url = await startConnecting(new InMemoryOAuthProvider(site.redirectUri));
    url.searchParams.set("resource", "https://api.example.com/mcp");
    expect(await refusedOnOurOrigin(url)).toContain("invalid_target");
  });

  it("answers prompt=none, another response type or a plain PKCE challenge on its own page, never at the app's redirect URI", async () => {
    const connecting = await startConnecting(new InMemoryOAuthProvider(site.redirectUri));
    for (const [name, value, error] of [["prompt", "none", "login_required"], ["response_type", "token", "unsupported_response_type"], ["code_challenge_method", "plain", "invalid_request"]] as const) {
      const url = new URL(connecting);
      url.searchParams.set(name, value);
      expect(await refusedOnOurOrigin(url)).toContain(error);
    }
  });

  it("is no open redirector: a link with anyone's registered https redirect URI and no PKCE stays on this server", async () => {
    const registered = await fetch(new URL("/oauth/register", server.origin), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ client_name: "Landing page", redirect_uris: ["https://evil.example/landing"], token_endpoint_auth_method: "none" }),
    });
    expect(registered.status).toBe(201);
    const { client_id: clientId } = (await registered.json()) as { client_id: string };
    for (const extra of [{}, { prompt: "none", code_challenge: "x".repeat(43), code_challenge_method: "S256" }] as Array<Record<string, string>>) {
      const url = new URL("/oauth/authorize", server.origin);
      url.search = new URLSearchParams({ client_id: clientId, response_type: "code", redirect_uri: "https://evil.example/landing", state: "s", ...extra }).toString();
      const page = await refusedOnOurOrigin(url);
      expect(page).not.toContain("evil.example");
    }
  });

  it("refuses a parameter the database cannot store on its own page, naming it, not with a 500", async () => {
    const url = await startConnecting(new InMemoryOAuthProvider(site.redirectUri));
    url.searchParams.set("state", "a\u0000b");
    expect(await refusedOnOurOrigin(url)).toContain("state: contains a NUL character");
  });
});

describe("/mcp", () => {
  it("answers 401 pointing to its Protected Resource Metadata, which names the authorization server", async () => {
    const res = await post(connectorUrl(), undefined, initialize);
    expect(res.status).toBe(401);
    const challenge = res.headers.get("www-authenticate") ?? "";
    const metadataUrl = `${server.origin}/.well-known/oauth-protected-resource/mcp`;
    expect(challenge).toBe(`Bearer resource_metadata="${metadataUrl}", scope="artifacts:read intelligence:read data:read skills:read"`);
    const metadata = await (await fetch(metadataUrl)).json();
    expect(metadata).toMatchObject({ resource: connectorUrl().href, authorization_servers: [issuer()], scopes_supported: ["artifacts:read", "intelligence:read", "data:read", "skills:read"] });
    const server8414 = await (await fetch(`${server.origin}/.well-known/oauth-authorization-server/oauth`)).json();
    expect(server8414).toMatchObject({ issuer: issuer(), code_challenge_methods_supported: ["S256"], authorization_response_iss_parameter_supported: true, registration_endpoint: `${issuer()}/register` });
  });

  it("serves an API key too, and answers a refused one with the OAuth challenge", async () => {
    expect((await post(connectorUrl(), home.key, initialize)).status).toBe(200);
    const refused = await post(connectorUrl(), "wsi_not_a_real_key", initialize);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer resource_metadata=".*", scope=".*", error="invalid_token"$/);
    expect(await refused.json()).toEqual({ error: "Invalid API key", code: "unauthorized" });
  });

  it("leaves an API key's tools beyond its scopes unlisted, with no scope challenge (that is for grants)", async () => {
    const readOnly = await createKey(t.services, home.workspaceId, { scopes: ["intelligence:read"] });
    const res = await post(connectorUrl(), readOnly.key, toolCall("search", { query: "kiosk" }));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ error: { message: expect.stringMatching(/Tool search not found/) } });
  });

  it("refuses a token issued for the resource at another address", async () => {
    const provider = new InMemoryOAuthProvider(site.redirectUri);
    await connect(provider);
    const sameServerOtherName = connectorUrl().href.replace("127.0.0.1", "localhost");
    const res = await post(sameServerOtherName, provider.saved!.access_token, initialize);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toMatch(/not issued for/);
  });

  it("answers 403 insufficient_scope for a tool the grant's scopes do not cover, and serves the others", async () => {
    const provider = new InMemoryOAuthProvider(site.redirectUri);
    const client = await connect(provider, { scopes: ["intelligence:read"] });
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(["get_briefing", "recall_memories"]);
    expect((await callTool(client, "get_briefing")).isError).toBeFalsy();
    await client.close();
    const res = await post(connectorUrl(), provider.saved!.access_token, toolCall("search", { query: "kiosk" }));
    expect(res.status).toBe(403);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer .*error="insufficient_scope"/);
    expect(res.headers.get("www-authenticate")).toMatch(/scope="intelligence:read artifacts:read"/);
  });

  it("answers a body that is not JSON as /mcp does: 400 with JSON-RPC's parse error", async () => {
    const provider = new InMemoryOAuthProvider(site.redirectUri);
    await (await connect(provider)).close();
    const res = await fetch(connectorUrl(), { method: "POST", headers: { ...MCP_HEADERS, Authorization: `Bearer ${provider.saved!.access_token}` }, body: "{not json" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 } });
  });
});

describe("/mcp/key beside it", () => {
  it("serves an API key and advertises no authorization server", async () => {
    expect((await post(new URL("/mcp/key", server.origin), home.key, initialize)).status).toBe(200);
    const refused = await post(new URL("/mcp/key", server.origin), undefined, initialize);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).not.toMatch(/resource_metadata/);
    expect((await fetch(`${server.origin}/.well-known/oauth-protected-resource`)).status).toBe(404);
    expect((await fetch(`${server.origin}/.well-known/oauth-protected-resource/mcp/key`)).status).toBe(404);
  });

  it("refuses an OAuth access token", async () => {
    const provider = new InMemoryOAuthProvider(site.redirectUri);
    await connect(provider);
    expect((await post(new URL("/mcp/key", server.origin), provider.saved!.access_token, initialize)).status).toBe(401);
  });
});
