// Takes the screenshots in docs/console.md from a running server with the system Chromium:
//   npx tsx scripts/console-screenshots.ts http://localhost:3000 EMAIL PASSWORD [consent]
// It signs in, registers an app as a hosted connector does and shoots the consent page it is sent
// to; then (unless `consent` is given) shoots the queue, which needs drafts pushed beforehand, opens
// the first draft, opens its evidence appendix and shoots it.
import { discoverAuthorizationServerMetadata, registerClient, startAuthorization } from "@modelcontextprotocol/sdk/client/auth.js";
import { chromium, type Page } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../tests/support/browser";

async function main(): Promise<void> {
  const [base = "http://localhost:3000", email, password, only] = process.argv.slice(2);
  if (!email || !password) throw new Error("usage: console-screenshots.ts BASE_URL EMAIL PASSWORD");
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    await page.goto(`${base}/console/sign-in`);
    await page.fill("input[name=email]", email);
    await page.fill("input[name=password]", password);
    await page.click("button[type=submit]");
    await page.waitForURL(/\/console$/);
    await shootConsent(page, base);
    if (only === "consent") return;
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.goto(`${base}/console`);
    await page.waitForSelector("table[data-queue]");
    await page.screenshot({ path: "docs/images/console-queue.png" });
    await page.keyboard.press("Enter");
    await page.waitForSelector("article.artifact");
    await page.click("details.evidence > summary").catch(() => undefined);
    // A viewport as tall as the page, rather than a stitched full-page shot, keeps sticky parts in place.
    const height = Number(await page.evaluate("document.documentElement.scrollHeight"));
    await page.setViewportSize({ width: 1280, height });
    await page.screenshot({ path: "docs/images/console-artifact.png" });
  } finally {
    await browser.close();
  }
}

/** The consent page an app registered just now reaches; the app's redirect address is never visited. */
async function shootConsent(page: Page, base: string): Promise<void> {
  const issuer = new URL("/oauth", base);
  const metadata = await discoverAuthorizationServerMetadata(issuer);
  if (!metadata) throw new Error(`no authorization server metadata at ${issuer.href}`);
  const redirectUrl = "http://localhost:8976/callback";
  const clientMetadata = { client_name: "Claude", redirect_uris: [redirectUrl], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"], response_types: ["code"] };
  const clientInformation = await registerClient(issuer, { metadata, clientMetadata });
  const { authorizationUrl } = await startAuthorization(issuer, {
    metadata,
    clientInformation,
    redirectUrl,
    scope: "artifacts:read intelligence:read data:read skills:read",
    resource: new URL("/mcp", base),
  });
  await page.goto(authorizationUrl.href);
  await page.waitForSelector("[data-section=consent]");
  const height = Number(await page.evaluate("document.documentElement.scrollHeight"));
  await page.setViewportSize({ width: 1280, height: Math.max(height, 600) });
  await page.screenshot({ path: "docs/images/console-consent.png" });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
