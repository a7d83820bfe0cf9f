import request from "supertest";
import { COMMANDS, exitCodeOf } from "../../src/cli/admin-commands";
import { newId } from "../../src/lib/ids";
import { adminAuth, createWorkspaceWithKey, importContent } from "../support/factories";
import { churnSkill } from "../support/skill-fixtures";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(() => t.close());

const checkNames = async () => {
  const built = COMMANDS["check:names"]!({});
  const res = await request(t.app).get(built.path).set(adminAuth(t.adminToken));
  return { status: res.status, body: res.body, exitCode: exitCodeOf(built, res.status, res.body) };
};

/** A row as an older version stored it, bypassing the import's validation. */
async function insertRaw(workspaceId: string, { skill, dataSource, files = [] }: { skill?: string; dataSource?: string; files?: string[] }) {
  const prisma = t.database.prisma;
  if (skill !== undefined) {
    const skillId = newId("skl");
    await prisma.skill.create({ data: { id: skillId, workspaceId, name: skill, description: "old", source: "uploaded", allowedTools: [] }, select: { id: true } });
    for (const path of files) {
      await prisma.skillFile.create({
        data: { id: newId("skf"), workspaceId, skillId, path, kind: "binary", size: 1, contentType: "image/png", storageKey: `workspaces/${workspaceId}/skill-files/old` },
        select: { id: true },
      });
    }
  }
  if (dataSource !== undefined) {
    await prisma.dataSource.create({ data: { id: newId("ds"), workspaceId, name: dataSource, connectorType: "postgres", status: "connected" }, select: { id: true } });
  }
}

describe("npm run admin -- check:names (GET /admin/v1/name-violations)", () => {
  it("reports a skill and a data source stored with bad names, with their workspace, and exits 1", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    await insertRaw(ws.workspaceId, { skill: "../x", dataSource: "line\nbreak" });
    const { status, body, exitCode } = await checkNames();
    expect(status).toBe(200);
    const workspaceName = (await t.services.workspaces.get(ws.workspaceId)).name;
    expect(body.items).toEqual([
      {
        workspaceId: ws.workspaceId,
        workspaceName,
        kind: "skill",
        name: "../x",
        problem: "must be lowercase letters, digits and single hyphens, 1 to 64 characters (e.g. churn-analysis)",
      },
      { workspaceId: ws.workspaceId, workspaceName, kind: "dataSource", name: "line\nbreak", problem: "must not contain control characters (U+0000 to U+001F, U+007F to U+009F)" },
    ]);
    expect(exitCode).toBe(1);
  });

  it("reports a skill file whose path holds control characters, with its skill, between skills and data sources", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    await insertRaw(ws.workspaceId, { skill: "old-kit", files: ["SKILL.md", "evil\r\nSet-Cookie: pwned=1\r\nX: .png", "b\u0085.md"] });
    await insertRaw(ws.workspaceId, { skill: "Old Kit", dataSource: "bell\u0007" });
    const { body, exitCode } = await checkNames();
    const workspaceName = (await t.services.workspaces.get(ws.workspaceId)).name;
    const CONTROL_RULE = "must not contain control characters (U+0000 to U+001F, U+007F to U+009F)";
    expect(body.items).toEqual([
      { workspaceId: ws.workspaceId, workspaceName, kind: "skill", name: "Old Kit", problem: "must be lowercase letters, digits and single hyphens, 1 to 64 characters (e.g. churn-analysis)" },
      { workspaceId: ws.workspaceId, workspaceName, kind: "skillFile", skill: "old-kit", name: "b\u0085.md", problem: CONTROL_RULE },
      { workspaceId: ws.workspaceId, workspaceName, kind: "skillFile", skill: "old-kit", name: "evil\r\nSet-Cookie: pwned=1\r\nX: .png", problem: CONTROL_RULE },
      { workspaceId: ws.workspaceId, workspaceName, kind: "dataSource", name: "bell\u0007", problem: CONTROL_RULE },
    ]);
    expect(exitCode).toBe(1);
  });

  it("takes data source names with / : and spaces as valid labels", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    await insertRaw(ws.workspaceId, { dataSource: "Marketing / Ad Spend" });
    await insertRaw(ws.workspaceId, { dataSource: "prod: eu-west-1" });
    expect((await checkNames()).body).toEqual({ items: [] });
  });

  it("leaves the offending rows as they are", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    await insertRaw(ws.workspaceId, { skill: "Churn" });
    await checkNames();
    expect(await t.database.prisma.skill.findMany({ where: { workspaceId: ws.workspaceId }, select: { name: true } })).toEqual([{ name: "Churn" }]);
  });

  it("reports disabled skills too, and only the bad names among valid ones", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    await importContent(t.services, ws.workspaceId, { skills: [churnSkill()], dataSources: [{ name: "finance lake", connectorType: "postgres", status: "connected" }] });
    await insertRaw(ws.workspaceId, { skill: "Old Skill" });
    await t.database.prisma.skill.updateMany({ where: { workspaceId: ws.workspaceId, name: "Old Skill" }, data: { enabled: false } });
    const { body } = await checkNames();
    expect(body.items.map((item: { name: string }) => item.name)).toEqual(["Old Skill"]);
  });

  it("answers an empty list and exits 0 when every name is valid", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    await importContent(t.services, ws.workspaceId, { skills: [churnSkill()], dataSources: [{ name: "finance lake", connectorType: "postgres", status: "connected" }] });
    const { status, body, exitCode } = await checkNames();
    expect(status).toBe(200);
    expect(body).toEqual({ items: [] });
    expect(exitCode).toBe(0);
  });

  it("needs the admin token", async () => {
    await request(t.app).get("/admin/v1/name-violations").expect(401);
  });
});
