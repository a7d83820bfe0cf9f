import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import request from "supertest";
import { COMMANDS } from "../../src/cli/admin-commands";
import { readSkillFolder } from "../../src/cli/skill-folder";
import { adminAuth, createWorkspaceWithKey } from "../support/factories";
import { TINY_PNG } from "../support/skill-fixtures";
import { createTestApp, type TestApp } from "../support/test-app";

const SKILL_MD = `---
name: revenue-bridge
description: Explain the change in ARR between two quarters.
allowed-tools: Read, Bash(python:*)
compatibility: Needs the finance lake.
---

# Revenue bridge
`;

let dir: string;
let t: TestApp;

function write(relative: string, content: string | Buffer) {
  mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
  writeFileSync(path.join(dir, relative), content);
}

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "wsi-skill-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("readSkillFolder (npm run admin -- skill:import)", () => {
  it("reads the front matter and every file beneath the folder, binaries as base64", () => {
    write("SKILL.md", SKILL_MD);
    write("scripts/bridge.py", "print('bridge')\n");
    write("assets/chart.png", TINY_PNG);
    write(".DS_Store", "junk");
    write(".git/config", "junk");
    expect(readSkillFolder(dir)).toEqual({
      name: "revenue-bridge",
      description: "Explain the change in ARR between two quarters.",
      source: "uploaded",
      allowedTools: ["Read", "Bash(python:*)"],
      compatibility: "Needs the finance lake.",
      files: [
        { path: "SKILL.md", content: SKILL_MD },
        { path: "assets/chart.png", contentBase64: TINY_PNG.toString("base64") },
        { path: "scripts/bridge.py", content: "print('bridge')\n" },
      ],
    });
  });

  it("takes allowed-tools as a YAML list or as a space-separated string", () => {
    write("SKILL.md", "---\nname: a\ndescription: b\nallowed-tools:\n  - sql\n  - python\n---\n");
    expect(readSkillFolder(dir).allowedTools).toEqual(["sql", "python"]);
    write("SKILL.md", "---\nname: a\ndescription: b\nallowed-tools: sql python\n---\n");
    expect(readSkillFolder(dir).allowedTools).toEqual(["sql", "python"]);
  });

  it("refuses a folder without SKILL.md", () => {
    expect(() => readSkillFolder(dir)).toThrow(/has no SKILL\.md/);
  });

  it("says the folder was not found when it does not exist, rather than that it has no SKILL.md", () => {
    const missing = path.join(dir, "no-such-skill");
    expect(() => readSkillFolder(missing)).toThrow(`The skill folder ${missing} was not found`);
  });

  it("reads the example skill folder the README imports, and the import takes it", async () => {
    const skill = readSkillFolder(path.join(__dirname, "../../docs/examples/skills/revenue-bridge"));
    expect(skill.files.map((file) => file.path)).toEqual(["SKILL.md", "scripts/bridge.py"]);
    const ws = await createWorkspaceWithKey(t.services);
    await request(t.app).post(`/admin/v1/workspaces/${ws.workspaceId}/import`).set(adminAuth(t.adminToken)).send({ skills: [skill] }).expect(200);
  });

  it("refuses a SKILL.md without front matter", () => {
    write("SKILL.md", "# Just a heading\n");
    expect(() => readSkillFolder(dir)).toThrow(/must start with YAML front matter/);
  });

  it("produces a skill the import takes, with kinds inferred and sizes in bytes", async () => {
    write("SKILL.md", SKILL_MD);
    write("scripts/bridge.py", "print('bridge')\n");
    write("assets/chart.png", TINY_PNG);
    const ws = await createWorkspaceWithKey(t.services);
    // What the CLI sends: the folder as the skills section of an import document.
    await request(t.app)
      .post(`/admin/v1/workspaces/${ws.workspaceId}/import`)
      .set(adminAuth(t.adminToken))
      .send({ skills: [readSkillFolder(dir)] })
      .expect(200);
    const res = await request(t.app).get("/api/v1/skills").set(ws.auth);
    expect(res.body.items[0]).toMatchObject({
      name: "revenue-bridge",
      source: "uploaded",
      version: 1,
      allowedTools: ["Read", "Bash(python:*)"],
      files: [
        { path: "SKILL.md", kind: "markdown", size: Buffer.byteLength(SKILL_MD) },
        { path: "assets/chart.png", kind: "binary", size: TINY_PNG.length },
        { path: "scripts/bridge.py", kind: "script", size: 16 },
      ],
    });
  });

  it.each(["../x", "/abs/path", "a/../../b", "<script>alert(1)</script>", "CON", "", "a".repeat(65), "Churn"])(
    "skill:import answers 400 for the front-matter name %j and stores no skill",
    async (name) => {
      write("SKILL.md", `---\nname: ${JSON.stringify(name)}\ndescription: Hostile.\n---\n`);
      const ws = await createWorkspaceWithKey(t.services);
      const built = COMMANDS["skill:import"]!({ workspace: ws.workspaceId, dir });
      const res = await request(t.app).post(built.path).set(adminAuth(t.adminToken)).send(built.body as object);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("skills[0].name: must be lowercase letters, digits and single hyphens, 1 to 64 characters (e.g. churn-analysis)");
      expect(await t.database.prisma.skill.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
    },
  );

  it("skill:import answers 400 for a file whose name holds control characters, naming it, and stores no skill", async () => {
    write("SKILL.md", SKILL_MD);
    // Linux lets a file name hold a line break; an agent saving it, or a header carrying it, must not meet it.
    write("assets/evil\r\nSet-Cookie: pwned=1\r\nX: .png", TINY_PNG);
    const ws = await createWorkspaceWithKey(t.services);
    const built = COMMANDS["skill:import"]!({ workspace: ws.workspaceId, dir });
    const res = await request(t.app).post(built.path).set(adminAuth(t.adminToken)).send(built.body as object);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("skills[0].files[1].path: must not contain control characters (U+0000 to U+001F, U+007F to U+009F)");
    expect(await t.database.prisma.skill.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
  });

  it("skill:import takes a front-matter name that follows the grammar", async () => {
    write("SKILL.md", SKILL_MD);
    const ws = await createWorkspaceWithKey(t.services);
    const built = COMMANDS["skill:import"]!({ workspace: ws.workspaceId, dir });
    await request(t.app).post(built.path).set(adminAuth(t.adminToken)).send(built.body as object).expect(200);
    expect(await t.database.prisma.skill.findMany({ where: { workspaceId: ws.workspaceId }, select: { name: true } })).toEqual([{ name: "revenue-bridge" }]);
  });
});
