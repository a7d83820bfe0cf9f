import { launchBrowser, listen, signIn } from "./browser";
import { startConnectorSite } from "./oauth-client";
import { createTestApp } from "./test-app";

/**
 * What every OAuth test file stands on: the app on a loopback port, Chromium, and a connector's
 * own site on another origin (its start page and redirect URI), closed together.
 */
export async function startOAuthScene(options: Parameters<typeof createTestApp>[0] = {}) {
  const t = await createTestApp(options);
  const [browser, server, site] = await Promise.all([launchBrowser(), listen(t.app), startConnectorSite()]);
  return {
    t,
    browser,
    server,
    site,
    /** The browser state of a person signed in to the console, for consent pages reached with a session. */
    async signedIn(reviewer: { email: string; password: string }) {
      const context = await browser.newContext();
      try {
        await signIn(await context.newPage(), server.origin, reviewer.email, reviewer.password);
        return await context.storageState();
      } finally {
        await context.close();
      }
    },
    async close() {
      await browser.close();
      await server.close();
      await site.close();
      await t.close();
    },
  };
}

export type OAuthScene = Awaited<ReturnType<typeof startOAuthScene>>;
