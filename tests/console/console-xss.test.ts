import type { Browser, BrowserContext, Page } from "playwright-core";
import { pushArtifact } from "../support/artifacts";
import { launchBrowser, listen, signIn } from "../support/browser";
import { createReviewer } from "../support/console";
import { createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

// Each payload, if it ever ran, sets window.__xss or opens a dialog; each that loaded anything
// would ask evil.test for it. Images over https: are allowed by the console's policy and so are
// not among them; http:, data:, protocol-relative and javascript: addresses are.
const PAYLOADS = [
  `<script>window.__xss=1</script>`,
  `<img src=x onerror="window.__xss=1">`,
  `<svg onload="window.__xss=1"></svg>`,
  `"><img src=x onerror=window.__xss=1>`,
  `'><script>alert(1)</script>`,
  `<iframe src="javascript:window.__xss=1"></iframe>`,
  `<a href="javascript:window.__xss=1">click</a>`,
  `[click me](javascript:window.__xss=1)`,
  `[data link](data:text/html,<script>alert(1)</script>)`,
  `![pixel](http://evil.test/pixel.png)`,
  `![pixel](//evil.test/pixel.png)`,
  `![svg](data:image/svg+xml,<svg onload=alert(1)>)`,
  `<style>@import 'http://evil.test/x.css'; body{display:none}</style>`,
  `<link rel=stylesheet href=http://evil.test/x.css>`,
  `<base href="http://evil.test/">`,
  `<meta http-equiv="refresh" content="0;url=http://evil.test/">`,
  `<form action="http://evil.test/"><button>go</button></form>`,
  `<object data="http://evil.test/x.swf"></object>`,
  `<div style="background:url(http://evil.test/bg.png)">styled</div>`,
  `<img srcset="http://evil.test/a.png 1x">`,
];
const HOSTILE = PAYLOADS.join("\n\n");
const IMAGE_SOURCES = [
  "javascript:window.__xss=1",
  "data:image/svg+xml,<svg onload=alert(1)>",
  "http://evil.test/chart.png",
  "//evil.test/chart.png",
  "/\\evil.test/chart.png",
  " https://evil.test/chart.png",
  `x" onerror="window.__xss=1`,
];

const hostileArtifact = {
  summary: `<img src=x onerror="window.__xss=1"> <script>alert(1)</script>`,
  why: HOSTILE,
  confidence: 0.5,
  confidenceExplanation: HOSTILE,
  recommendation: HOSTILE,
  keyFindings: PAYLOADS,
  recommendations: [{ text: HOSTILE, type: "warning" }, { text: HOSTILE, type: "info" }],
  sourceSystem: `<script>alert(1)</script>`,
  // One data source per payload: a data-source name is at most 500 characters.
  dataSources: PAYLOADS.map((name) => ({ type: "database", name })),
  codeExecuted: [{ language: HOSTILE, code: HOSTILE, output: HOSTILE, title: HOSTILE, toolName: HOSTILE }],
  content: {
    root: "root",
    elements: {
      root: { type: "Section", props: { title: HOSTILE }, children: ["md", "metrics", "callout", "table", "sources", "sql", ...IMAGE_SOURCES.map((_, i) => `img${i}`)] },
      md: { type: "Markdown", props: { content: HOSTILE } },
      metrics: { type: "MetricRow", props: { items: [{ label: HOSTILE, value: HOSTILE, change: HOSTILE, direction: "up" }] } },
      callout: { type: "Callout", props: { type: "warning", text: HOSTILE } },
      table: { type: "DataTable", props: { columns: [HOSTILE, { key: "k", label: HOSTILE }], rows: [[HOSTILE, HOSTILE], { k: HOSTILE }], caption: HOSTILE } },
      sources: { type: "DataSourceList", props: { sources: [{ name: HOSTILE, type: HOSTILE }] } },
      sql: { type: "SqlEvidence", props: { connectionName: HOSTILE, connectorType: HOSTILE, sql: `SELECT '</code></pre><script>window.__xss=1</script>'` } },
      ...Object.fromEntries(IMAGE_SOURCES.map((src, i) => [`img${i}`, { type: "ChartImage", props: { src, caption: HOSTILE } }])),
    },
  },
};

let t: TestApp;
let browser: Browser;
let server: Awaited<ReturnType<typeof listen>>;
let home: WorkspaceWithKey;
let context: BrowserContext;
let page: Page;
const seen = { dialogs: [] as string[], errors: [] as string[], requests: [] as string[] };

beforeAll(async () => {
  t = await createTestApp();
  [browser, server] = await Promise.all([launchBrowser(), listen(t.app)]);
  home = await createWorkspaceWithKey(t.services);
  const reviewer = await createReviewer(t, home.workspaceId);
  context = await browser.newContext();
  page = await context.newPage();
  page.on("dialog", (dialog) => {
    seen.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on("pageerror", (error) => seen.errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") seen.errors.push(message.text());
  });
  context.on("request", (req) => seen.requests.push(req.url()));
  await signIn(page, server.origin, reviewer.email, reviewer.password);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await t.close();
});

async function expectInert(): Promise<void> {
  expect(await page.evaluate("window.__xss")).toBeUndefined();
  expect(seen.dialogs).toEqual([]);
  expect(seen.errors).toEqual([]);
  expect(seen.requests.filter((url) => new URL(url).origin !== server.origin)).toEqual([]);
  // Nothing the agent wrote became markup that could act.
  const live = await page.evaluate(`[
    document.querySelectorAll("script:not([src^='/console/assets/'])").length,
    document.querySelectorAll("iframe, object, embed, base, meta[http-equiv], link:not([href^='/console/assets/']), style").length,
    document.querySelectorAll("[onerror], [onload], [onclick], [style]").length,
    document.querySelectorAll("a[href^='javascript'], a[href^='data'], img[src^='data'], img[src^='http:'], img[srcset]").length,
    document.querySelectorAll("article form").length,
  ]`);
  expect(live).toEqual([0, 0, 0, 0, 0]);
}

describe("hostile content pushed by an agent", () => {
  let id: string;
  beforeAll(async () => {
    id = await pushArtifact(t, home.auth, hostileArtifact);
    await pushArtifact(t, home.auth, { ...hostileArtifact, content: HOSTILE });
  });

  it("stays inert on the queue", async () => {
    await page.goto(`${server.origin}/console`);
    await expect(page.locator("table[data-queue]").textContent()).resolves.toContain("<script>alert(1)</script>");
    await expectInert();
  });

  it("stays inert on the artifact page, in every field, the element tree and the evidence appendix", async () => {
    await page.goto(`${server.origin}/console/artifacts/${id}`);
    await page.click("details.evidence > summary");
    await page.click("[data-section=code] > summary");
    await expect(page.locator("[data-field=summary]").textContent()).resolves.toContain(`<img src=x onerror="window.__xss=1">`);
    await expect(page.locator("[data-block=SqlEvidence] code").textContent()).resolves.toContain("<script>window.__xss=1</script>");
    await expect(page.locator(".image-refused").count()).resolves.toBe(IMAGE_SOURCES.length);
    await expectInert();
  });

  it("stays inert when the whole body is hostile Markdown", async () => {
    await page.goto(`${server.origin}/console`);
    await page.keyboard.press("Enter");
    await page.waitForSelector("[data-body=markdown]");
    await expectInert();
  });
});
