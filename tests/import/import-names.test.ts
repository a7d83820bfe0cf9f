import request from "supertest";
import { adminAuth, createWorkspaceWithKey } from "../support/factories";
import { churnSkill } from "../support/skill-fixtures";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const importInto = (workspaceId: string, document: unknown) =>
  request(t.app).post(`/admin/v1/workspaces/${workspaceId}/import`).set(adminAuth(t.adminToken)).send(document as object);

const source = (name: string) => ({ name, connectorType: "postgres", status: "connected" });

const SKILL_RULE = "must be lowercase letters, digits and single hyphens, 1 to 64 characters (e.g. churn-analysis)";
const DEVICE_RULE = "must not be a device name Windows reserves (CON, PRN, AUX, NUL, COM1 to COM9, LPT1 to LPT9)";

const storedNames = async (workspaceId: string) => ({
  skills: (await t.database.prisma.skill.findMany({ where: { workspaceId }, select: { name: true } })).map((row) => row.name),
  dataSources: (await t.database.prisma.dataSource.findMany({ where: { workspaceId }, select: { name: true } })).map((row) => row.name),
});

describe("skill names in the import document", () => {
  it.each([
    ["../x", SKILL_RULE],
    ["/abs/path", SKILL_RULE],
    ["a/../../b", SKILL_RULE],
    ["<script>alert(1)</script>", SKILL_RULE],
    ["", SKILL_RULE],
    ["a".repeat(65), SKILL_RULE],
    ["Churn", SKILL_RULE],
    ["CON", SKILL_RULE],
    ["con", DEVICE_RULE],
    ["lpt1", DEVICE_RULE],
    ["-churn", SKILL_RULE],
    ["churn-", SKILL_RULE],
    ["churn--analysis", SKILL_RULE],
    ["churn_analysis", SKILL_RULE],
    ["churn analysis", SKILL_RULE],
    ["churn\u00e9", SKILL_RULE],
  ])("answers 400 for %j, naming the field and the rule, and stores nothing", async (name, rule) => {
    const ws = await createWorkspaceWithKey(t.services);
    const res = await importInto(ws.workspaceId, { skills: [churnSkill({ name })] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: `skills[0].name: ${rule}`, code: "bad_request" });
    expect((await storedNames(ws.workspaceId)).skills).toEqual([]);
  });

  it.each(["churn-analysis", "a", "sql2", "9", "a-b-c", "a".repeat(64), "console"])("accepts %j", async (name) => {
    const ws = await createWorkspaceWithKey(t.services);
    await importInto(ws.workspaceId, { skills: [churnSkill({ name })] }).expect(200);
    const res = await request(t.app).get("/api/v1/skills").set(ws.auth).expect(200);
    expect(res.body.items.map((skill: { name: string }) => skill.name)).toEqual([name]);
  });

  it("names the entry that breaks the rule", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    const res = await importInto(ws.workspaceId, { skills: [churnSkill({ name: "ok" }), churnSkill({ name: "../x" })] });
    expect(res.body.error).toBe(`skills[1].name: ${SKILL_RULE}`);
  });
});

describe("data source names in the import document", () => {
  const CONTROL_RULE = "must not contain control characters (U+0000 to U+001F, U+007F to U+009F)";

  it.each([
    ["line\nbreak", CONTROL_RULE],
    ["bell\u0007", CONTROL_RULE],
    ["delete\u007f", CONTROL_RULE],
    ["c1\u0085control", CONTROL_RULE],
    [".", "must not be . or .., which a URL path cannot carry"],
    ["..", "must not be . or .., which a URL path cannot carry"],
    [" finance lake", "must not start or end with whitespace"],
    ["finance lake ", "must not start or end with whitespace"],
    ["", "must be 1 to 64 characters"],
    ["w".repeat(65), "must be 1 to 64 characters"],
  ])("answers 400 for %j, naming the field and the rule, and stores nothing", async (name, rule) => {
    const ws = await createWorkspaceWithKey(t.services);
    const res = await importInto(ws.workspaceId, { dataSources: [source(name)] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: `dataSources[0].name: ${rule}`, code: "bad_request" });
    expect((await storedNames(ws.workspaceId)).dataSources).toEqual([]);
  });

  // Labels people gave their connections: the service never uses one as a path or file name.
  it.each([
    "Marketing / Ad Spend",
    "finance lake",
    "warehouse",
    "Sales DB (EU)",
    "entrepôt-2",
    "a.b",
    "...",
    "../x",
    "/abs/path",
    "a\\b",
    "prod: eu-west-1",
    'what? "this" | that * <x>',
    "50% off & more #1",
    "CON",
    "nul.txt",
    "w".repeat(64),
    "数据仓库",
  ])("accepts %j, which the query-intelligence path then finds by its percent-encoded name", async (name) => {
    const ws = await createWorkspaceWithKey(t.services);
    await importInto(ws.workspaceId, { dataSources: [source(name)] }).expect(200);
    expect((await request(t.app).get("/api/v1/data-sources").set(ws.auth).expect(200)).body.items.map((item: { name: string }) => item.name)).toEqual([name]);
    await request(t.app).get(`/api/v1/data-sources/${encodeURIComponent(name)}/query-intelligence`).query({ question: "churn" }).set(ws.auth).expect(200);
  });
});

/** A path as a test's title shows it: escaped, and a long one by its length. */
const shown = (path: string) => (path.length > 80 ? `${path.length} characters` : JSON.stringify(path));

describe("skill file paths in the import document", () => {
  const CONTROL_RULE = "must not contain control characters (U+0000 to U+001F, U+007F to U+009F)";
  const PATH_RULE = "must be a relative path with / separators and no empty, . or .. segments";
  const storedPaths = async (workspaceId: string) =>
    (await t.database.prisma.skillFile.findMany({ where: { workspaceId }, select: { path: true } })).map((row) => row.path);

  it.each([
    ["evil\r\nSet-Cookie: pwned=1\r\nX: .png", CONTROL_RULE],
    ["docs/line\nbreak.md", CONTROL_RULE],
    ["tab\there.md", CONTROL_RULE],
    ["escape\u001b[31m.md", CONTROL_RULE],
    ["c1\u009b.md", CONTROL_RULE],
    ["../escape.md", PATH_RULE],
    ["/abs.md", PATH_RULE],
    ["a\\b.md", PATH_RULE],
    ["a//b.md", PATH_RULE],
    ["", "must not be empty"],
    ["a".repeat(4_097), "must be at most 4096 characters"],
  ].map(([path, rule]) => [shown(path!), path!, rule!]))("answers 400 for %s, naming the file and the rule, and stores nothing", async (_shown, path, rule) => {
    const ws = await createWorkspaceWithKey(t.services);
    const skill = churnSkill();
    const res = await importInto(ws.workspaceId, { skills: [{ ...skill, files: [...skill.files, { path, content: "x" }] }] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: `skills[0].files[3].path: ${rule}`, code: "bad_request" });
    expect(await storedPaths(ws.workspaceId)).toEqual([]);
  });

  it.each(["SKILL.md", "scripts/check.py", "assets/retention curve (v2).png", "données/é.md", "a".repeat(4_096)].map((path) => [shown(path), path]))("accepts %s", async (_shown, path) => {
    const ws = await createWorkspaceWithKey(t.services);
    await importInto(ws.workspaceId, { skills: [churnSkill({ files: [{ path, content: "x" }] })] }).expect(200);
    const file = await request(t.app).get("/api/v1/skills/churn-analysis/files").query({ path }).set(ws.auth).expect(200);
    expect(file.body).toMatchObject({ path, content: "x" });
  });
});

describe("an import with several bad entries", () => {
  it("is refused as a whole, naming every bad entry with its rule", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    const res = await importInto(ws.workspaceId, {
      dataSources: [source("Marketing / Ad Spend"), source("bell\u0007"), source("..")],
      skills: [churnSkill({ name: "Churn" }), churnSkill({ name: "kit", files: [{ path: "evil\r\nSet-Cookie: pwned=1\r\nX: .png", content: "x" }] })],
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(
      "4 problems: " +
        [
          "dataSources[1].name: must not contain control characters (U+0000 to U+001F, U+007F to U+009F)",
          "dataSources[2].name: must not be . or .., which a URL path cannot carry",
          `skills[0].name: ${SKILL_RULE}`,
          "skills[1].files[0].path: must not contain control characters (U+0000 to U+001F, U+007F to U+009F)",
        ].join("; "),
    );
    expect(await storedNames(ws.workspaceId)).toEqual({ skills: [], dataSources: [] });
  });

  it("names the first twenty problems and counts the rest", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    const res = await importInto(ws.workspaceId, { dataSources: Array.from({ length: 25 }, (_, n) => source(`bad\n${n}`)) });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^25 problems: dataSources\[0\]\.name: must not contain control characters/);
    expect(res.body.error).toContain("dataSources[19].name");
    expect(res.body.error).not.toContain("dataSources[20].name");
    expect(res.body.error).toMatch(/; and 5 more$/);
  });
});
