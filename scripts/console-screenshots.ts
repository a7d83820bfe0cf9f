// Takes the screenshots in docs/console.md from a running server with the system Chromium:
//   npx tsx scripts/console-screenshots.ts http://localhost:3000 EMAIL PASSWORD
// It signs in, shoots the queue, opens the first draft, opens its evidence appendix and shoots it.
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../tests/support/browser";

async function main(): Promise<void> {
  const [base = "http://localhost:3000", email, password] = process.argv.slice(2);
  if (!email || !password) throw new Error("usage: console-screenshots.ts BASE_URL EMAIL PASSWORD");
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    await page.goto(`${base}/console/sign-in`);
    await page.fill("input[name=email]", email);
    await page.fill("input[name=password]", password);
    await page.click("button[type=submit]");
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

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
