import type { Browser, BrowserContext, Page } from "playwright-core";
import request from "supertest";
import { pushArtifact, validatedArtifact } from "../support/artifacts";
import { launchBrowser, listen, signIn } from "../support/browser";
import { createReviewer } from "../support/console";
import { elementTreeArtifact } from "../support/console-fixtures";
import { createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

// One browser and one server for the file; each test gets its own page (its own cookies).
let t: TestApp;
let browser: Browser;
let server: Awaited<ReturnType<typeof listen>>;
let home: WorkspaceWithKey;
let reviewer: Awaited<ReturnType<typeof createReviewer>>;
let page: Page;
let signedIn: Awaited<ReturnType<BrowserContext["storageState"]>>;

beforeAll(async () => {
  t = await createTestApp();
  [browser, server] = await Promise.all([launchBrowser(), listen(t.app)]);
  home = await createWorkspaceWithKey(t.services, { keyName: "churn-bot" });
  reviewer = await createReviewer(t, home.workspaceId);
  // Signing in costs a deliberate scrypt hash: do it once and reuse the session's cookies.
  const context = await browser.newContext();
  await signIn(await context.newPage(), server.origin, reviewer.email, reviewer.password);
  signedIn = await context.storageState();
  await context.close();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await t.close();
});
beforeEach(async () => {
  page = await (await browser.newContext()).newPage();
});

/** A page already signed in as the home workspace's reviewer. */
async function reviewerPage(): Promise<Page> {
  await page.context().close();
  page = await (await browser.newContext({ storageState: signedIn })).newPage();
  return page;
}
afterEach(() => page.context().close());

const statusOf = async (id: string) => (await t.database.prisma.artifact.findUnique({ where: { workspaceId_id: { workspaceId: home.workspaceId, id } } }))?.status;

describe("the review console in a browser", () => {
  it("signs in to the queue and signs out again", async () => {
    await signIn(page, server.origin, reviewer.email, reviewer.password);
    expect(new URL(page.url()).pathname).toBe("/console");
    await expect(page.locator("h1").textContent()).resolves.toContain("Review queue");
    await page.click("text=Sign out");
    await page.waitForURL(/\/console\/sign-in/);
    await page.goto(`${server.origin}/console`);
    expect(new URL(page.url()).pathname).toBe("/console/sign-in");
  });

  it("stays on the sign-in form with an error for a wrong password", async () => {
    await page.goto(`${server.origin}/console/sign-in`);
    await page.fill("input[name=email]", reviewer.email);
    await page.fill("input[name=password]", "not the password");
    await page.click("button[type=submit]");
    await expect(page.locator("[role=alert]").textContent()).resolves.toContain("Wrong email or password");
    expect(new URL(page.url()).pathname).toBe("/console/sign-in");
  });

  it("refuses a reviewer of another workspace with 404", async () => {
    const other = await createWorkspaceWithKey(t.services);
    const outsider = await createReviewer(t, other.workspaceId);
    const draft = await pushArtifact(t, home.auth, { summary: "Only for the home workspace" });
    await signIn(page, server.origin, outsider.email, outsider.password);
    const response = await page.goto(`${server.origin}/console/artifacts/${draft}`);
    expect(response?.status()).toBe(404);
    await expect(page.content()).resolves.not.toContain("Only for the home workspace");
  });

  it("validates and disputes from the keyboard, moving through the queue", async () => {
    const first = await pushArtifact(t, home.auth, { summary: "Keyboard draft one" });
    const second = await pushArtifact(t, home.auth, { summary: "Keyboard draft two" });
    await reviewerPage();
    await page.goto(`${server.origin}/console`);
    // Newest first: j moves the selection from "two" to "one"; k back up; Enter opens.
    await page.keyboard.press("j");
    await page.keyboard.press("k");
    await page.keyboard.press("Enter");
    await page.waitForURL(new RegExp(`/console/artifacts/${second}`));
    await page.keyboard.press("v");
    await page.waitForURL(new RegExp(`/console/artifacts/(?!${second})`));
    expect(await statusOf(second)).toBe("validated");
    await page.goto(`${server.origin}/console/artifacts/${first}`);
    await page.keyboard.press("d");
    await page.keyboard.type("Counts trials as customers");
    await page.keyboard.press("Control+Enter");
    await page.waitForURL((url) => !url.pathname.endsWith(first));
    expect(await statusOf(first)).toBe("disputed");
    const feedback = await request(t.app).get("/api/v1/feedback").set(home.auth).expect(200);
    const byId = new Map(feedback.body.items.map((item: { artifactId: string }) => [item.artifactId, item]));
    expect(byId.get(second)).toMatchObject({ status: "validated", validatedBy: reviewer.email });
    expect(byId.get(first)).toMatchObject({ status: "disputed", disputeReason: "Counts trials as customers" });
  });

  it("renders the element tree block by block, with provenance in a collapsed evidence appendix", async () => {
    await validatedArtifact(t, home.auth, { summary: "Enterprise logo churn fell in Q2", why: "Retention baseline" });
    await t.services.indexer.runOnce(home.workspaceId);
    const id = await pushArtifact(t, home.auth, elementTreeArtifact);
    await reviewerPage();
    await page.goto(`${server.origin}/console/artifacts/${id}`);
    const blocks = await page.locator("[data-body=tree] [data-block]").evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-block")));
    expect(blocks).toEqual(["Section", "Markdown", "MetricRow", "ChartImage", "Callout", "DataTable", "DataSourceList", "SqlEvidence"]);
    await expect(page.locator("[data-block=Markdown] strong").textContent()).resolves.toBe("June pricing change");
    await expect(page.locator(".metric-change.direction-up").count()).resolves.toBe(1);
    await expect(page.locator(".metric-change.direction-down").count()).resolves.toBe(1);
    // A lazy image loads once it is near the viewport, and may still be loading after `goto`: its
    // size is read once it is decoded (decode() rejects for an image that fails to load).
    const chart = page.locator("[data-block=ChartImage] img");
    await chart.scrollIntoViewIfNeeded();
    await expect(
      chart.evaluate(async (img) => {
        const image = img as unknown as { naturalWidth: number; decode(): Promise<void> };
        await image.decode();
        return image.naturalWidth > 0;
      }),
    ).resolves.toBe(true);
    await expect(page.locator("[data-block=DataTable] tbody tr").count()).resolves.toBe(3);
    // Provenance sits only inside the appendix, which starts closed.
    const evidence = page.locator("details.evidence");
    await expect(evidence.getAttribute("open")).resolves.toBeNull();
    await expect(page.locator("[data-block=SqlEvidence]").isVisible()).resolves.toBe(false);
    await page.click("details.evidence > summary");
    await expect(page.locator("[data-block=SqlEvidence] code").textContent()).resolves.toContain("FROM churn_by_quarter");
    await expect(page.locator("[data-section=code]").getAttribute("open")).resolves.toBeNull();
    await expect(page.locator("[data-section=recommendations] .callout-warning").textContent()).resolves.toContain("October is partial");
    await expect(page.locator("[data-section=similar]").textContent()).resolves.toContain("Enterprise logo churn fell in Q2");
  });

  it("renders a string body as Markdown and a body of another shape from summary, findings and recommendations", async () => {
    const markdown = await pushArtifact(t, home.auth, { content: "Conversion fell from **14%** to **11%**.\n\n- mobile down" });
    const odd = await pushArtifact(t, home.auth, {
      keyFindings: ["Tickets per account fell 18%"],
      recommendations: [{ text: "Keep the new onboarding", type: "recommendation" }],
      content: { root: "missing", elements: { a: { type: "Marquee", props: {} } } },
    });
    await reviewerPage();
    await page.goto(`${server.origin}/console/artifacts/${markdown}`);
    await expect(page.locator("[data-body=markdown] strong").first().textContent()).resolves.toBe("14%");
    await page.goto(`${server.origin}/console/artifacts/${odd}`);
    await expect(page.locator("[data-body=fallback] .notice").textContent()).resolves.toContain("shown from its summary, findings and recommendations");
    await expect(page.locator("[data-section=findings]").textContent()).resolves.toContain("Tickets per account fell 18%");
    await expect(page.locator("[data-section=recommendations]").textContent()).resolves.toContain("Keep the new onboarding");
  });
});
