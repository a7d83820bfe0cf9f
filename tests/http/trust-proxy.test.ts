import request from "supertest";
import { createWorkspaceWithKey, importContent } from "../support/factories";
import { capturingLogger } from "../support/log-capture";
import { churnSkill, TINY_PNG } from "../support/skill-fixtures";
import { createTestApp, type TestApp } from "../support/test-app";

// Behind one router (Heroku-style) TRUST_PROXY=1 believes the router's X-Forwarded-* headers.
const behindRouter = capturingLogger();
const direct = capturingLogger();
let routed: TestApp;
let exposed: TestApp;

beforeAll(async () => {
  routed = await createTestApp({ trustProxy: 1, logger: behindRouter.logger });
  exposed = await createTestApp({ logger: direct.logger });
});
afterAll(async () => {
  await routed.close();
  await exposed.close();
});

const FORWARDED = { "X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.7", Host: "wsi.example.com" };

async function downloadUrl(t: TestApp): Promise<string> {
  const ws = await createWorkspaceWithKey(t.services);
  await importContent(t.services, ws.workspaceId, {
    skills: [churnSkill({ files: [{ path: "assets/curve.png", contentBase64: TINY_PNG.toString("base64") }] })],
  });
  const res = await request(t.app).get("/api/v1/skills/churn-analysis/files").query({ path: "assets/curve.png" }).set(ws.auth).set(FORWARDED);
  expect(res.status).toBe(200);
  return res.body.url as string;
}

const lastRequestIp = (lines: Array<Record<string, unknown>>) => lines.filter((line) => line.msg === "request").at(-1)?.ip;

describe("TRUST_PROXY", () => {
  it("builds https download links from the router's X-Forwarded-Proto when the router is trusted", async () => {
    expect(await downloadUrl(routed)).toMatch(/^https:\/\/wsi\.example\.com\/downloads\//);
  });

  it("logs the client address the router forwarded when the router is trusted", async () => {
    await request(routed.app).get("/healthz").set(FORWARDED).expect(200);
    expect(lastRequestIp(behindRouter.lines())).toBe("203.0.113.7");
  });

  it("ignores X-Forwarded-* headers by default, which any client could send", async () => {
    expect(await downloadUrl(exposed)).toMatch(/^http:\/\/wsi\.example\.com\/downloads\//);
    await request(exposed.app).get("/healthz").set(FORWARDED).expect(200);
    expect(lastRequestIp(direct.lines())).not.toBe("203.0.113.7");
  });
});
