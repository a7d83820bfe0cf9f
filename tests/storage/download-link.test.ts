import { createHash } from "node:crypto";
import request from "supertest";
import { DEFAULT_FILE_SETTINGS } from "../../src/services";
import { createWorkspaceWithKey, importContent } from "../support/factories";
import { churnSkill, TINY_PNG } from "../support/skill-fixtures";
import { createTestApp, type TestApp } from "../support/test-app";

let now = Date.parse("2025-10-01T12:00:00Z");
const clock = { now: () => new Date(now) };
let t: TestApp;
/** The same app with every download setting changed: a short TTL, its own secret, a public base URL. */
let configured: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock });
  configured = await createTestApp({
    clock,
    files: {
      ...DEFAULT_FILE_SETTINGS,
      downloadUrlTtlSeconds: 60,
      signingSecret: "another-secret-of-at-least-32-characters",
      publicBaseUrl: "https://intel.example.com/",
    },
  });
});
afterAll(async () => {
  await t.close();
  await configured.close();
});

/** A fresh workspace with one skill holding `path`, and the download path the API hands out for it. */
async function downloadPathOf(app: TestApp, path: string, bytes: Buffer = TINY_PNG): Promise<string> {
  const ws = await createWorkspaceWithKey(app.services);
  await importContent(app.services, ws.workspaceId, {
    skills: [churnSkill({ files: [{ path, contentBase64: bytes.toString("base64") }] })],
  });
  const res = await request(app.app).get("/api/v1/skills/churn-analysis/files").query({ path }).set(ws.auth);
  return new URL(res.body.url).pathname;
}

describe("GET /downloads/{token}", () => {
  it("serves the exact bytes as an attachment with the file's type, without an API key", async () => {
    const res = await request(t.app).get(await downloadPathOf(t, "assets/curve.png")).buffer(true);
    expect(res.status).toBe(200);
    expect(Buffer.compare(res.body as Buffer, TINY_PNG)).toBe(0);
    expect(res.headers["content-type"]).toBe("image/png");
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="curve.png"; filename*=UTF-8''curve.png`);
    expect(res.headers["cache-control"]).toBe("private, no-store");
  });

  it("serves an unknown binary type as application/octet-stream and keeps a unicode file name", async () => {
    const res = await request(t.app).get(await downloadPathOf(t, "données/modèle.bin", Buffer.from([0, 1, 2]))).buffer(true);
    expect(res.headers["content-type"]).toBe("application/octet-stream");
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="mod_le.bin"; filename*=UTF-8''mod%C3%A8le.bin`);
  });

  it("works until five minutes have passed, then answers 403", async () => {
    const path = await downloadPathOf(t, "assets/curve.png");
    now += 299_000;
    expect((await request(t.app).get(path)).status).toBe(200);
    now += 2_000;
    const res = await request(t.app).get(path);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatch(/^This download link has expired/);
  });

  it("lives as long as DOWNLOAD_URL_TTL_SECONDS says", async () => {
    const path = await downloadPathOf(configured, "assets/curve.png");
    now += 59_000;
    expect((await request(configured.app).get(path)).status).toBe(200);
    now += 2_000;
    expect((await request(configured.app).get(path)).status).toBe(403);
  });

  it("answers 403 for a tampered link", async () => {
    const path = await downloadPathOf(t, "assets/curve.png");
    const [payload, signature] = path.slice("/downloads/".length).split(".");
    const forged = Buffer.from(JSON.stringify(["workspaces/ws_other/skill-files/x", "x.png", "image/png", 9_999_999_999])).toString("base64url");
    for (const token of [`${forged}.${signature}`, `${payload}.${signature!.slice(0, -2)}AA`, `${payload}`, "garbage"]) {
      const res = await request(t.app).get(`/downloads/${token}`);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: "This download link is not valid", code: "forbidden" });
    }
  });

  it("refuses a link signed with another secret", async () => {
    const path = await downloadPathOf(configured, "assets/curve.png");
    expect((await request(configured.app).get(path)).status).toBe(200);
    expect((await request(t.app).get(path)).status).toBe(403);
  });

  it("answers 404 when the file behind the link no longer exists", async () => {
    const bytes = Buffer.from([9, 0, 9, 0]);
    const path = await downloadPathOf(t, "assets/gone.png", bytes);
    // Storage keys end with the digest of the bytes.
    await t.database.prisma.storedBlob.deleteMany({ where: { key: { endsWith: createHash("sha256").update(bytes).digest("hex") } } });
    const res = await request(t.app).get(path);
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("The file behind this download link no longer exists");
  });

  it("builds links on PUBLIC_BASE_URL when it is set, and on the request's host otherwise", async () => {
    const links = async (app: TestApp) => {
      const ws = await createWorkspaceWithKey(app.services);
      await importContent(app.services, ws.workspaceId, { skills: [churnSkill()] });
      return (await request(app.app).get("/api/v1/skills/churn-analysis/files").query({ path: "assets/curve.png" }).set(ws.auth)).body.url;
    };
    expect(await links(configured)).toMatch(/^https:\/\/intel\.example\.com\/downloads\/[\w-]+\.[\w-]+$/);
    expect(await links(t)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/downloads\//);
  });
});
