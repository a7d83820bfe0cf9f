import request from "supertest";
import { createWorkspaceWithKey, importContent } from "../support/factories";
import { churnSkill, SKILL_MD, TINY_PNG } from "../support/skill-fixtures";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const entriesOf = async (files: Array<Record<string, string>>) => {
  const ws = await createWorkspaceWithKey(t.services);
  await importContent(t.services, ws.workspaceId, { skills: [churnSkill({ files })] });
  return (await request(t.app).get("/api/v1/skills").set(ws.auth)).body.items[0].files;
};

describe("GET /api/v1/skills", () => {
  it("answers SkillItem exactly, with file entries by path", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    await importContent(t.services, ws.workspaceId, {
      skills: [churnSkill({ version: 3, official: true, allowedTools: ["sql", "python"], compatibility: "Needs the warehouse." })],
    });
    const res = await request(t.app).get("/api/v1/skills").set(ws.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      items: [
        {
          name: "churn-analysis",
          description: "Churn by plan.",
          version: 3,
          source: "authored",
          official: true,
          allowedTools: ["sql", "python"],
          compatibility: "Needs the warehouse.",
          files: [
            { path: "SKILL.md", size: Buffer.byteLength(SKILL_MD), kind: "markdown" },
            { path: "assets/curve.png", size: TINY_PNG.length, kind: "binary" },
            { path: "scripts/cohorts.py", size: 17, kind: "script" },
          ],
        },
      ],
    });
  });

  it("omits allowedTools and compatibility when the skill has none, and defaults version 1 and official false", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    await importContent(t.services, ws.workspaceId, { skills: [churnSkill()] });
    const [skill] = (await request(t.app).get("/api/v1/skills").set(ws.auth)).body.items;
    expect(Object.keys(skill).sort()).toEqual(["description", "files", "name", "official", "source", "version"]);
    expect(skill).toMatchObject({ version: 1, official: false });
  });

  it("lists enabled skills only", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    await importContent(t.services, ws.workspaceId, {
      skills: [churnSkill(), churnSkill({ name: "legacy-export", enabled: false })],
    });
    const res = await request(t.app).get("/api/v1/skills").set(ws.auth);
    expect(res.body.items.map((skill: { name: string }) => skill.name)).toEqual(["churn-analysis"]);
  });

  it("reports size as the byte length, not the character count", async () => {
    const [entry] = await entriesOf([{ path: "notes.txt", content: "é€" }]);
    expect(entry).toEqual({ path: "notes.txt", size: 5, kind: "text" });
  });

  it.each([
    ["guide.md", { content: "# Guide" }, "markdown"],
    ["query.sql", { content: "SELECT 1" }, "script"],
    ["run.sh", { content: "echo hi" }, "script"],
    ["data.csv", { content: "a,b\n1,2" }, "text"],
    ["config.yaml", { content: "a: 1" }, "text"],
    ["notes.unknownext", { content: "plain words" }, "text"],
    ["bin/check", { content: "#!/usr/bin/env python3\nprint(1)" }, "script"],
    ["image.png", { contentBase64: TINY_PNG.toString("base64") }, "binary"],
    ["blob.dat", { contentBase64: Buffer.from([0xff, 0xfe, 0x00, 0x01]).toString("base64") }, "binary"],
    ["broken.md", { contentBase64: Buffer.from([0xc3, 0x28]).toString("base64") }, "binary"],
  ])("infers the kind of %s from its extension and bytes", async (path, body, kind) => {
    const [entry] = await entriesOf([{ path, ...body }]);
    expect(entry.kind).toBe(kind);
  });

  it("keeps a kind the document states", async () => {
    const [entry] = await entriesOf([{ path: "README", content: "Read me", kind: "markdown" }]);
    expect(entry.kind).toBe("markdown");
  });

  it("shows a key only its own workspace's skills", async () => {
    const a = await createWorkspaceWithKey(t.services);
    const b = await createWorkspaceWithKey(t.services);
    await importContent(t.services, b.workspaceId, { skills: [churnSkill({ name: "only-in-b" })] });
    expect((await request(t.app).get("/api/v1/skills").set(a.auth)).body).toEqual({ items: [] });
  });
});
