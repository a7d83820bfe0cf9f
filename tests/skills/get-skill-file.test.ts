import request from "supertest";
import { StorageUnreachableError } from "../../src/storage/file-storage";
import { createWorkspaceWithKey, importContent, type WorkspaceWithKey } from "../support/factories";
import { churnSkill, SKILL_MD, TINY_PNG } from "../support/skill-fixtures";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let ws: WorkspaceWithKey;
beforeAll(async () => {
  t = await createTestApp();
  ws = await createWorkspaceWithKey(t.services);
  await importContent(t.services, ws.workspaceId, {
    skills: [churnSkill(), churnSkill({ name: "legacy-export", enabled: false })],
  });
});
afterAll(() => t.close());

const file = (skill: string, path?: string, who: WorkspaceWithKey = ws) =>
  request(t.app)
    .get(`/api/v1/skills/${encodeURIComponent(skill)}/files`)
    .query(path === undefined ? {} : { path })
    .set(who.auth);

describe("GET /api/v1/skills/{name}/files", () => {
  it("returns a markdown file inline with url null", async () => {
    const res = await file("churn-analysis", "SKILL.md");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ path: "SKILL.md", kind: "markdown", size: Buffer.byteLength(SKILL_MD), content: SKILL_MD, url: null });
  });

  it("returns a script inline with url null", async () => {
    const res = await file("churn-analysis", "scripts/cohorts.py");
    expect(res.body).toEqual({ path: "scripts/cohorts.py", kind: "script", size: 17, content: "print('cohorts')\n", url: null });
  });

  it("returns a binary as content null and an absolute download url that needs no key", async () => {
    const res = await file("churn-analysis", "assets/curve.png");
    expect(res.body).toEqual({
      path: "assets/curve.png",
      kind: "binary",
      size: TINY_PNG.length,
      content: null,
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/downloads\/[\w-]+\.[\w-]+$/),
    });
    const download = await request(t.app).get(new URL(res.body.url).pathname).buffer(true);
    expect(download.status).toBe(200);
    expect(Buffer.compare(download.body as Buffer, TINY_PNG)).toBe(0);
  });

  it.each([
    ["../legacy-export/SKILL.md"],
    ["/SKILL.md"],
    ["./SKILL.md"],
    ["scripts/../SKILL.md"],
    ["scripts\\cohorts.py"],
    ["skill.md"],
    ["SKILL.md/"],
  ])("answers 404 for the path %p, which is not exactly a file's path", async (path) => {
    const res = await file("churn-analysis", path);
    expect(res.status).toBe(404);
    expect(res.body.error).toBe(`Skill "churn-analysis" has no file at path "${path}"`);
  });

  it("answers 404 for an unknown skill", async () => {
    const res = await file("nope", "SKILL.md");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'No enabled skill named "nope" in this workspace', code: "not_found" });
  });

  it("answers 404 for a file of a disabled skill", async () => {
    expect((await file("legacy-export", "SKILL.md")).status).toBe(404);
  });

  it("answers 400 without a path", async () => {
    const res = await file("churn-analysis");
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("query parameter path: is required");
  });

  it("answers 400 for an empty path", async () => {
    expect((await file("churn-analysis", "")).status).toBe(400);
  });

  it("answers 502 {error} when the file storage is unreachable", async () => {
    jest.spyOn(t.services.storage, "get").mockRejectedValueOnce(new StorageUnreachableError("get", new Error("connect ECONNREFUSED")));
    const res = await file("churn-analysis", "SKILL.md");
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ error: "File storage is unreachable; try again shortly", code: "bad_gateway" });
  });

  it("never serves another workspace's file, even under the same skill name", async () => {
    const b = await createWorkspaceWithKey(t.services);
    await importContent(t.services, b.workspaceId, {
      skills: [churnSkill({ files: [{ path: "SKILL.md", content: "workspace B" }] }), churnSkill({ name: "only-in-b" })],
    });
    expect((await file("only-in-b", "SKILL.md")).status).toBe(404);
    expect((await file("churn-analysis", "SKILL.md")).body.content).toBe(SKILL_MD);
    expect((await file("churn-analysis", "SKILL.md", b)).body.content).toBe("workspace B");
    expect((await file("churn-analysis", "assets/curve.png", b)).status).toBe(404);
  });
});
