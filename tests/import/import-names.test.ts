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
  it.each([
    ["../x", 'must not contain / \\ < > : " | ? * or control characters'],
    ["/abs/path", 'must not contain / \\ < > : " | ? * or control characters'],
    ["a\\b", 'must not contain / \\ < > : " | ? * or control characters'],
    ["<script>alert(1)</script>", 'must not contain / \\ < > : " | ? * or control characters'],
    ["line\nbreak", 'must not contain / \\ < > : " | ? * or control characters'],
    ["bell\u0007", 'must not contain / \\ < > : " | ? * or control characters'],
    [".", "must not be . or .."],
    ["..", "must not be . or .."],
    [" finance lake", "must not start or end with whitespace"],
    ["finance lake ", "must not start or end with whitespace"],
    ["", "must be 1 to 64 characters"],
    ["w".repeat(65), "must be 1 to 64 characters"],
    ["CON", DEVICE_RULE],
    ["nul.txt", DEVICE_RULE],
  ])("answers 400 for %j, naming the field and the rule, and stores nothing", async (name, rule) => {
    const ws = await createWorkspaceWithKey(t.services);
    const res = await importInto(ws.workspaceId, { dataSources: [source(name)] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: `dataSources[0].name: ${rule}`, code: "bad_request" });
    expect((await storedNames(ws.workspaceId)).dataSources).toEqual([]);
  });

  it.each(["finance lake", "warehouse", "Sales DB (EU)", "entrepôt-2", "a.b", "...", "w".repeat(64), "数据仓库"])(
    "accepts %j, which the query-intelligence path then finds",
    async (name) => {
      const ws = await createWorkspaceWithKey(t.services);
      await importInto(ws.workspaceId, { dataSources: [source(name)] }).expect(200);
      await request(t.app).get(`/api/v1/data-sources/${encodeURIComponent(name)}/query-intelligence`).query({ question: "churn" }).set(ws.auth).expect(200);
    },
  );
});
