import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { discoverAuthorizationServerMetadata, exchangeAuthorization, refreshAuthorization, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Browser, BrowserContext } from "playwright-core";
import { validatedArtifact } from "../support/artifacts";
import { launchBrowser, listen, signIn } from "../support/browser";
import { createReviewer } from "../support/console";
import { createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { callTool, textJson } from "../support/mcp-client";
import { InMemoryOAuthProvider, startConnectorSite } from "../support/oauth-client";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let browser: Browser;
let server: Awaited<ReturnType<typeof listen>>;
let site: Awaited<ReturnType<typeof startConnectorSite>>;
let home: WorkspaceWithKey;
let other: WorkspaceWithKey;
let homeArtifact: string;
let otherArtifact: string;
let reviewer: Awaited<ReturnType<typeof createReviewer>>;
let signedIn: Awaited<ReturnType<BrowserContext["storageState"]>>;

const connectorUrl = () => new URL("/connector/mcp", server.origin);
const issuer = () => `${server.origin}/oauth`;

beforeAll(async () => {
  t = await createTestApp();
  [browser, server, site] = await Promise.all([launchBrowser(), listen(t.app), startConnectorSite()]);
  home = await createWorkspaceWithKey(t.services, { workspaceName: "Home" });
  other = await createWorkspaceWithKey(t.services, { workspaceName: "Other" });
  homeArtifact = await validatedArtifact(t, home.auth, { summary: "Lisbon kiosk footfall rose in July" });
  otherArtifact = await validatedArtifact(t, other.auth, { summary: "Porto kiosk footfall fell in July" });
  reviewer = await createReviewer(t, home.workspaceId);
  await t.services.reviewers.add(other.workspaceId, { email: reviewer.email, name: "Reviewer", password: reviewer.password });
  const context = await browser.newContext();
  await signIn(await context.newPage(), server.origin, reviewer.email, reviewer.password);
  signedIn = await context.storageState();
  await context.close();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await site?.close();
  await t?.close();
});

interface Consent {
  /** Sign in on the way (a browser without a console session). */
  signInOnTheWay?: boolean;
  workspace?: string;
  scopes?: string[];
  decision?: "approve" | "deny";
}

/**
 * What a person does after a connector sends them to the authorization URL: the browser arrives
 * from the connector's site, signs in if it must, chooses on the consent page, and is sent back to
 * the connector's redirect URI, whose URL is returned with the pages the browser went through.
 */
async function consentInBrowser(authorizationUrl: URL, consent: Consent = {}): Promise<{ callback: URL; visited: string[] }> {
  const context = await browser.newContext(consent.signInOnTheWay ? {} : { storageState: signedIn });
  try {
    const page = await context.newPage();
    const visited: string[] = [];
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) visited.push(frame.url());
    });
    await page.goto(site.startPage(authorizationUrl.href));
    const callback = site.nextCallback();
    await page.click("#connect");
    await page.waitForSelector("[data-section=consent], input[name=email]");
    if (consent.signInOnTheWay) {
      await page.fill("input[name=email]", reviewer.email);
      await page.fill("input[name=password]", reviewer.password);
      await page.click("button[type=submit]");
      await page.waitForSelector("[data-section=consent]");
    }
    if (consent.workspace) await page.selectOption("[data-section=consent] select[name=workspace]", consent.workspace);
    if (consent.scopes) {
      for (const box of await page.locator("input[name=scopes]").all()) {
        await box.setChecked(consent.scopes.includes((await box.getAttribute("value")) ?? ""));
      }
    }
    await page.click(`button[value=${consent.decision ?? "approve"}]`);
    return { callback: await callback, visited };
  } finally {
    await context.close();
  }
}

/** An SDK client that knows only the connector URL: it is refused, registers itself, and names the authorization URL. */
async function startConnecting(provider: InMemoryOAuthProvider): Promise<URL> {
  const client = new Client({ name: "connector-tests", version: "1.0.0" });
  await expect(client.connect(new StreamableHTTPClientTransport(connectorUrl(), { authProvider: provider }))).rejects.toThrow(UnauthorizedError);
  if (!provider.authorizationUrl) throw new Error("the SDK client was not sent to an authorization URL");
  return provider.authorizationUrl;
}

/** The whole dance through the SDK client: the tokens end up in the provider. */
async function connect(provider: InMemoryOAuthProvider, consent: Consent = {}): Promise<Client> {
  const { callback } = await consentInBrowser(await startConnecting(provider), consent);
  const code = callback.searchParams.get("code");
  if (!code) throw new Error(`no code came back: ${callback.href}`);
  await new StreamableHTTPClientTransport(connectorUrl(), { authProvider: provider }).finishAuth(code);
  const client = new Client({ name: "connector-tests", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(connectorUrl(), { authProvider: provider }));
  return client;
}

describe("connecting a hosted connector through OAuth", () => {
  it("registers, signs in through the console, and then searches and fetches that workspace only", async () => {
    const provider = new InMemoryOAuthProvider(site.redirectUri);
    const { callback, visited } = await consentInBrowser(await startConnecting(provider), { signInOnTheWay: true, workspace: home.workspaceId });
    expect(callback.searchParams.get("iss")).toBe(issuer());
    expect(visited.some((url) => new URL(url).pathname === "/console/sign-in")).toBe(true);
    await new StreamableHTTPClientTransport(connectorUrl(), { authProvider: provider }).finishAuth(callback.searchParams.get("code")!);
    const client = new Client({ name: "connector-tests", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(connectorUrl(), { authProvider: provider }));

    const found = textJson(await callTool(client, "search", { query: "kiosk footfall July" })) as { results: Array<{ id: string }> };
    expect(found.results.map((r) => r.id)).toEqual([homeArtifact]);
    expect(textJson(await callTool(client, "fetch", { id: homeArtifact }))).toMatchObject({ id: homeArtifact });
    const elsewhere = await callTool(client, "fetch", { id: otherArtifact });
    expect(elsewhere.isError).toBe(true);
    await client.close();
  });
});
