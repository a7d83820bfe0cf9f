import request from "supertest";
import { DEFAULT_FILE_SETTINGS, type FileSettings } from "../../src/services";
import { createWorkspaceWithKey, importContent } from "../support/factories";
import { closedLoopbackPort, startS3CompatibleServer } from "../support/s3-compatible-server";
import { churnSkill, SKILL_MD, TINY_PNG } from "../support/skill-fixtures";
import { createTestApp, type TestApp } from "../support/test-app";

const s3Settings = (endpoint: string): FileSettings => ({
  ...DEFAULT_FILE_SETTINGS,
  fileStorage: { kind: "s3", bucket: "skills", region: "eu-west-1", endpoint, accessKeyId: "test", secretAccessKey: "test-secret", forcePathStyle: true },
});

describe("FILE_STORAGE=s3 against an S3-compatible endpoint", () => {
  let s3: Awaited<ReturnType<typeof startS3CompatibleServer>>;
  let t: TestApp;
  beforeAll(async () => {
    s3 = await startS3CompatibleServer();
    t = await createTestApp({ files: s3Settings(s3.endpoint) });
  });
  afterAll(async () => {
    await t.close();
    await s3.close();
  });

  it("stores imported skill files as objects of the bucket, with their content type", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    await importContent(t.services, ws.workspaceId, { skills: [churnSkill()] });
    const stored = [...s3.objects.entries()].filter(([key]) => key.startsWith(`/skills/workspaces/${ws.workspaceId}/skill-files/`));
    expect(stored).toHaveLength(3);
    expect(stored.map(([, object]) => object.contentType).sort()).toEqual(["image/png", "text/markdown; charset=utf-8", "text/x-python; charset=utf-8"]);
  });

  it("deletes a skill's objects with the skill, and a workspace's with the workspace", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    await importContent(t.services, ws.workspaceId, { skills: [churnSkill(), { ...churnSkill(), name: "churn-copy", files: [{ path: "SKILL.md", content: "# Copy" }] }] });
    const objectsOf = () => [...s3.objects.keys()].filter((key) => key.startsWith(`/skills/workspaces/${ws.workspaceId}/`));
    expect(objectsOf()).toHaveLength(4);
    await t.services.deletions.deleteSkill(ws.workspaceId, churnSkill().name);
    expect(objectsOf()).toHaveLength(1);
    await t.services.workspaceDeletion.delete(ws.workspaceId);
    expect(objectsOf()).toEqual([]);
  });

  it("reads a text file inline from the bucket", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    await importContent(t.services, ws.workspaceId, { skills: [churnSkill()] });
    const res = await request(t.app).get("/api/v1/skills/churn-analysis/files").query({ path: "SKILL.md" }).set(ws.auth);
    expect(res.body).toMatchObject({ content: SKILL_MD, url: null });
  });

  it("hands out a presigned URL valid for five minutes that serves the bytes as an attachment", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    await importContent(t.services, ws.workspaceId, { skills: [churnSkill()] });
    const res = await request(t.app).get("/api/v1/skills/churn-analysis/files").query({ path: "assets/curve.png" }).set(ws.auth);
    const url = new URL(res.body.url);
    expect(url.origin).toBe(s3.endpoint);
    expect(url.searchParams.get("X-Amz-Expires")).toBe("300");
    expect(url.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
    const download = await fetch(url);
    expect(Buffer.compare(Buffer.from(await download.arrayBuffer()), TINY_PNG)).toBe(0);
    expect(download.headers.get("content-type")).toBe("image/png");
    expect(download.headers.get("content-disposition")).toMatch(/^attachment; filename="curve.png"/);
  });

  it("answers 502 when the bucket has lost a text file's object", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    await importContent(t.services, ws.workspaceId, { skills: [churnSkill({ files: [{ path: "lost.md", content: "# lost" }] })] });
    for (const key of s3.objects.keys()) if (key.includes(ws.workspaceId)) s3.objects.delete(key);
    const res = await request(t.app).get("/api/v1/skills/churn-analysis/files").query({ path: "lost.md" }).set(ws.auth);
    expect(res.status).toBe(502);
    expect(res.body.error).toBe('File storage does not hold the bytes of "lost.md"');
  });
});

describe("FILE_STORAGE=s3 with the endpoint unreachable", () => {
  let t: TestApp;
  let endpoint: string;
  beforeAll(async () => {
    endpoint = `http://127.0.0.1:${await closedLoopbackPort()}`;
    t = await createTestApp({ files: s3Settings(endpoint) });
  });
  afterAll(() => t.close());

  it("answers 502 {error} for a text file", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    const skill = await t.database.prisma.skill.create({
      data: { id: "skl_unreachable", workspaceId: ws.workspaceId, name: "churn-analysis", description: "d", source: "authored" },
      select: { id: true },
    });
    await t.database.prisma.skillFile.create({
      data: { id: "skf_unreachable", workspaceId: ws.workspaceId, skillId: skill.id, path: "SKILL.md", kind: "markdown", size: 3, contentType: "text/markdown", storageKey: "k" },
      select: { id: true },
    });
    const res = await request(t.app).get("/api/v1/skills/churn-analysis/files").query({ path: "SKILL.md" }).set(ws.auth);
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ error: "File storage is unreachable; try again shortly", code: "bad_gateway" });
  });

  it("answers 502 for an import with skill files, and writes nothing", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    const res = await request(t.app)
      .post(`/admin/v1/workspaces/${ws.workspaceId}/import`)
      .set("Authorization", `Bearer ${t.adminToken}`)
      .send({ directives: [{ name: "d", content: "c" }], skills: [churnSkill()] });
    expect(res.status).toBe(502);
    expect(await t.database.prisma.directive.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
    expect(await t.database.prisma.skill.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
  });
});
