import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Browser, BrowserContext } from "playwright-core";
import type { InMemoryOAuthProvider, startConnectorSite } from "./oauth-client";

export interface Consent {
  /** Sign in on the way (a browser without a console session). */
  signInOnTheWay?: boolean;
  workspace?: string;
  scopes?: string[];
  decision?: "approve" | "deny";
}

export interface DanceSetting {
  browser: Browser;
  site: Awaited<ReturnType<typeof startConnectorSite>>;
  connectorUrl: URL;
  reviewer: { email: string; password: string };
  /** A browser state signed in to the console as the reviewer. */
  signedIn: Awaited<ReturnType<BrowserContext["storageState"]>>;
}

export type OAuthDance = ReturnType<typeof oauthDance>;

/** The steps of connecting a hosted connector: the SDK client's side, and the person's in Chromium. */
export function oauthDance({ browser, site, connectorUrl, reviewer, signedIn }: DanceSetting) {
  const newClient = () => new Client({ name: "connector-tests", version: "1.0.0" });

  /**
   * What a person does after a connector sends them to the authorization URL: the browser arrives
   * from the connector's site, signs in if it must, chooses on the consent page, and is sent back to
   * the connector's redirect URI, whose URL is returned with the pages the browser went through.
   */
  async function consentInBrowser(authorizationUrl: URL, consent: Consent = {}): Promise<{ callback: URL; visited: string[]; consentText: string }> {
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
        // The person learns why they are asked to sign in before they do.
        expect(await page.textContent("main")).toContain("An app asked to read one of your workspaces");
        await page.fill("input[name=email]", reviewer.email);
        await page.fill("input[name=password]", reviewer.password);
        await page.click("button[type=submit]");
        await page.waitForSelector("[data-section=consent]");
      }
      const consentText = (await page.locator("[data-section=consent]").textContent()) ?? "";
      if (consent.workspace) await page.selectOption("[data-section=consent] select[name=workspace]", consent.workspace);
      if (consent.scopes) {
        for (const box of await page.locator("input[name=scopes]").all()) {
          await box.setChecked(consent.scopes.includes((await box.getAttribute("value")) ?? ""));
        }
      }
      await page.click(`button[value=${consent.decision ?? "approve"}]`);
      return { callback: await callback, visited, consentText };
    } finally {
      await context.close();
    }
  }

  /** An SDK client that knows only the connector URL: it is refused, registers itself, and names the authorization URL. */
  async function startConnecting(provider: InMemoryOAuthProvider): Promise<URL> {
    await expect(newClient().connect(new StreamableHTTPClientTransport(connectorUrl, { authProvider: provider }))).rejects.toThrow(UnauthorizedError);
    if (!provider.authorizationUrl) throw new Error("the SDK client was not sent to an authorization URL");
    return provider.authorizationUrl;
  }

  /** The SDK client exchanges the code that came back, then connects with its token. */
  async function finish(provider: InMemoryOAuthProvider, callback: URL): Promise<Client> {
    const code = callback.searchParams.get("code");
    if (!code) throw new Error(`no code came back: ${callback.href}`);
    await new StreamableHTTPClientTransport(connectorUrl, { authProvider: provider }).finishAuth(code);
    const client = newClient();
    await client.connect(new StreamableHTTPClientTransport(connectorUrl, { authProvider: provider }));
    return client;
  }

  /** The whole dance through the SDK client: the tokens end up in the provider. */
  async function connect(provider: InMemoryOAuthProvider, consent: Consent = {}): Promise<Client> {
    const { callback } = await consentInBrowser(await startConnecting(provider), consent);
    return finish(provider, callback);
  }

  return { consentInBrowser, startConnecting, finish, connect };
}
