import request from "supertest";
import { adminAuth, createWorkspaceWithKey } from "../support/factories";
import { churnSkill } from "../support/skill-fixtures";
import { createTestApp, type TestApp } from "../support/test-app";

const NOW = Date.parse("2025-10-01T12:00:00Z");
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock: { now: () => new Date(NOW) } });
});
afterAll(() => t.close());

const importInto = (workspaceId: string, document: unknown) =>
  request(t.app).post(`/admin/v1/workspaces/${workspaceId}/import`).set(adminAuth(t.adminToken)).send(document as object);

const artifact = (summary: string, extra: Record<string, unknown> = {}) => ({
  summary,
  why: "Because it matters.",
  confidence: 0.8,
  confidenceExplanation: "Three months of data.",
  ...extra,
});

const source = (name: string, extra: Record<string, unknown> = {}) => ({ name, connectorType: "postgres", status: "connected", ...extra });

const countsOf = async (workspaceId: string) => {
  const where = { workspaceId };
  const prisma = t.database.prisma;
  return {
    directives: await prisma.directive.count({ where }),
    memories: await prisma.memory.count({ where }),
    dataSources: await prisma.dataSource.count({ where }),
    queryPatterns: await prisma.queryPattern.count({ where }),
    errorLearnings: await prisma.errorLearning.count({ where }),
    skills: await prisma.skill.count({ where }),
    skillFiles: await prisma.skillFile.count({ where }),
    artifacts: await prisma.artifact.count({ where }),
  };
};

const NOTHING = { directives: 0, memories: 0, dataSources: 0, queryPatterns: 0, errorLearnings: 0, skills: 0, skillFiles: 0, artifacts: 0 };

describe("POST /admin/v1/workspaces/{id}/import", () => {
  it("imports every section and answers the counts and the artifact ids in input order", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    const res = await importInto(ws.workspaceId, {
      context: "Fiscal year starts in February.",
      directives: [{ name: "pii", content: "No personal data." }],
      memories: [{ type: "rule", statement: "Exclude test accounts." }, { type: "context", statement: "Board deck due soon." }],
      dataSources: [
        source("warehouse", {
          queryPatterns: [{ question: "Churn by plan", sql: "SELECT 1", successCount: 4 }],
          errorLearnings: [{ failedSql: "SELECT plan", errorMessage: "no column", learning: "Use plan_name." }],
        }),
      ],
      skills: [churnSkill()],
      artifacts: [artifact("First"), artifact("Second", { status: "disputed", disputeReason: "Wrong cohort." })],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      imported: { context: 1, directives: 1, memories: 2, dataSources: 1, queryPatterns: 1, errorLearnings: 1, skills: 1, skillFiles: 3, artifacts: 2 },
      artifactIds: [expect.stringMatching(/^art_/), expect.stringMatching(/^art_/)],
    });
    const [first, second] = await Promise.all(res.body.artifactIds.map((id: string) => t.database.prisma.artifact.findUniqueOrThrow({ where: { workspaceId_id: { workspaceId: ws.workspaceId, id } } })));
    expect([first.summary, second.summary]).toEqual(["First", "Second"]);
    expect((await t.services.workspaces.get(ws.workspaceId)).context).toBe("Fiscal year starts in February.");
  });

  it("writes imported artifacts as internal, validated by default, a validated one with its memory-bank entry and vector rows, the others with neither", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    const res = await importInto(ws.workspaceId, {
      artifacts: [artifact("Validated", { validatedBy: "maria" }), artifact("Draft", { status: "draft" }), artifact("Disputed", { status: "disputed", disputeReason: "Wrong." })],
    });
    const prisma = t.database.prisma;
    const rows = await prisma.artifact.findMany({ where: { workspaceId: ws.workspaceId }, include: { memory: true } });
    const bySummary = Object.fromEntries(rows.map((row) => [row.summary, row]));
    const vectorsOf = (artifactId: string) => prisma.artifactEmbedding.findMany({ where: { artifactId } });
    expect(bySummary.Validated).toMatchObject({ status: "validated", trigger: "chat", createdBy: "import", validatedBy: "maria", validatedAt: new Date(NOW) });
    expect(bySummary.Validated!.memory).toMatchObject({ type: "finding", statement: "Validated", active: true });
    expect((await vectorsOf(bySummary.Validated!.id)).map((vector) => [vector.facet, vector.searchable]).sort()).toEqual([["body", true], ["headline", true]]);
    expect(bySummary.Draft).toMatchObject({ status: "draft", validatedAt: null });
    expect(bySummary.Draft!.memory).toBeNull();
    expect(await vectorsOf(bySummary.Draft!.id)).toEqual([]);
    expect(bySummary.Disputed).toMatchObject({ status: "disputed", disputeReason: "Wrong." });
    expect(bySummary.Disputed!.memory).toBeNull();
    expect(await vectorsOf(bySummary.Disputed!.id)).toEqual([]);
    expect(res.body.artifactIds).toHaveLength(3);
  });

  it("upserts directives, data sources and skills by name, replacing their patterns, learnings and files", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    const document = (version: string) => ({
      directives: [{ name: "pii", content: `No personal data, ${version}.` }],
      dataSources: [source("warehouse", { status: version === "v1" ? "connected" : "error", queryPatterns: [{ question: `Churn ${version}`, sql: "SELECT 1", successCount: 1 }] })],
      skills: [churnSkill({ description: `Churn ${version}`, files: [{ path: `${version}.md`, content: version }] })],
    });
    await importInto(ws.workspaceId, document("v1")).expect(200);
    await importInto(ws.workspaceId, document("v2")).expect(200);
    expect(await countsOf(ws.workspaceId)).toEqual({ ...NOTHING, directives: 1, dataSources: 1, queryPatterns: 1, skills: 1, skillFiles: 1 });
    const prisma = t.database.prisma;
    expect((await prisma.directive.findFirstOrThrow({ where: { workspaceId: ws.workspaceId } })).content).toBe("No personal data, v2.");
    expect((await prisma.dataSource.findFirstOrThrow({ where: { workspaceId: ws.workspaceId } })).status).toBe("error");
    expect((await prisma.queryPattern.findFirstOrThrow({ where: { workspaceId: ws.workspaceId } })).question).toBe("Churn v2");
    expect((await prisma.skillFile.findFirstOrThrow({ where: { workspaceId: ws.workspaceId } })).path).toBe("v2.md");
  });

  it("appends memories and artifacts on every import", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    const document = { memories: [{ type: "rule", statement: "Exclude test accounts." }], artifacts: [artifact("Finding")] };
    await importInto(ws.workspaceId, document).expect(200);
    await importInto(ws.workspaceId, document).expect(200);
    const counts = await countsOf(ws.workspaceId);
    expect(counts.artifacts).toBe(2);
    expect(counts.memories).toBe(4); // two ledger memories and the two artifacts' memory-bank entries
  });

  it("stamps an omitted createdAt with the time of the import, and takes milliseconds or ISO 8601", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    await importInto(ws.workspaceId, {
      memories: [
        { type: "rule", statement: "now" },
        { type: "rule", statement: "ms", createdAt: 1_700_000_000_000 },
        { type: "rule", statement: "iso", createdAt: "2025-02-01T08:00:00+01:00" },
      ],
    }).expect(200);
    const rows = await t.database.prisma.memory.findMany({ where: { workspaceId: ws.workspaceId } });
    const createdAt = Object.fromEntries(rows.map((row) => [row.statement, row.createdAt.getTime()]));
    expect(createdAt).toEqual({ now: NOW, ms: 1_700_000_000_000, iso: Date.parse("2025-02-01T07:00:00Z") });
  });

  it("clears the context with null and leaves it alone when absent", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    await importInto(ws.workspaceId, { context: "Standing context." }).expect(200);
    await importInto(ws.workspaceId, { directives: [] }).expect(200);
    expect((await t.services.workspaces.get(ws.workspaceId)).context).toBe("Standing context.");
    const res = await importInto(ws.workspaceId, { context: null });
    expect(res.body.imported.context).toBe(1);
    expect((await t.services.workspaces.get(ws.workspaceId)).context).toBeNull();
  });

  it("wakes the embedding indexer after the import", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    const wake = jest.spyOn(t.services.indexer, "wake");
    await importInto(ws.workspaceId, { memories: [{ type: "rule", statement: "x" }] }).expect(200);
    expect(wake).toHaveBeenCalledTimes(1);
    wake.mockRestore();
  });

  it.each([
    [
      { dataSources: [source("a"), source("b"), source("c", { connectorType: "oracle" })] },
      "dataSources[2].connectorType: must be one of: postgres, mysql, sqlserver, clickhouse, databricks",
    ],
    [{ memories: [{ type: "rumour", statement: "x" }] }, "memories[0].type: must be one of: preference, rule, correction, definition, finding, context"],
    [{ memories: [{ type: "rule", statement: "x", createdAt: "yesterday" }] }, "memories[0].createdAt: must be milliseconds since the Unix epoch or an ISO 8601 date-time"],
    [{ directives: [{ name: "a", content: "x" }, { name: "a", content: "y" }] }, "directives[1].name: duplicates the name of entry 0"],
    [{ skills: [churnSkill({ files: [{ path: "../escape.md", content: "x" }] })] }, "skills[0].files[0].path: must be a relative path with / separators and no empty, . or .. segments"],
    [{ skills: [churnSkill({ files: [{ path: "a.md", content: "x" }, { path: "a.md", content: "y" }] })] }, "skills[0].files[1].path: duplicates the path of entry 0"],
    [{ skills: [churnSkill({ files: [{ path: "a.md" }] })] }, "skills[0].files[0].content: give exactly one of content and contentBase64"],
    [{ skills: [churnSkill({ files: [{ path: "a.md", contentBase64: "not base64!" }] })] }, "skills[0].files[0].contentBase64: must be base64"],
    [{ skills: [churnSkill({ files: [{ path: "a.md", kind: "markdown", contentBase64: "AAEC" }] })] }, "skills[0].files[0].kind: is markdown, but the bytes are not UTF-8 text"],
    [{ skills: [churnSkill({ source: "downloaded" })] }, "skills[0].source: must be one of: uploaded, authored"],
    [{ artifacts: [artifact("x", { confidence: 2 })] }, "artifacts[0].confidence: must be at most 1"],
    [{ artifacts: [artifact("x", { status: "disputed" })] }, "artifacts[0].disputeReason: is required when status is disputed"],
    [{ dataSources: [source("a", { queryPatterns: [{ question: "q", sql: "s", successCount: 3_000_000_000 }] })] }, "dataSources[0].queryPatterns[0].successCount: must be at most 2147483647"],
  ])("answers 400 naming the first bad path, and writes nothing (%#)", async (bad, message) => {
    const ws = await createWorkspaceWithKey(t.services);
    const res = await importInto(ws.workspaceId, { directives: [{ name: "ok", content: "fine" }], memories: [{ type: "rule", statement: "ok" }], ...bad });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: message, code: "bad_request" });
    expect(await countsOf(ws.workspaceId)).toEqual(NOTHING);
  });

  it("writes nothing when the database fails part-way through the document", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    // A real failure inside the transaction, after every other section has been written.
    await t.database.prisma.$executeRawUnsafe(
      `CREATE FUNCTION refuse_explode() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$`,
    );
    // On Citus a trigger on a distributed table is created and dropped only when asked for (the setting is inert elsewhere).
    await t.database.prisma.$transaction([
      t.database.prisma.$executeRawUnsafe(`SET LOCAL citus.enable_unsafe_triggers TO on`),
      t.database.prisma.$executeRawUnsafe(
        `CREATE TRIGGER refuse_explode BEFORE INSERT ON artifacts FOR EACH ROW WHEN (NEW.summary = 'explode') EXECUTE FUNCTION refuse_explode()`,
      ),
    ]);
    try {
      const res = await importInto(ws.workspaceId, {
        context: "should not stick",
        directives: [{ name: "pii", content: "x" }],
        memories: [{ type: "rule", statement: "x" }],
        dataSources: [source("warehouse", { queryPatterns: [{ question: "q", sql: "s", successCount: 1 }] })],
        skills: [churnSkill()],
        artifacts: [artifact("fine"), artifact("explode")],
      });
      expect(res.status).toBe(500);
      expect(await countsOf(ws.workspaceId)).toEqual(NOTHING);
      expect((await t.services.workspaces.get(ws.workspaceId)).context).toBeNull();
    } finally {
      await t.database.prisma.$transaction([
        t.database.prisma.$executeRawUnsafe(`SET LOCAL citus.enable_unsafe_triggers TO on`),
        t.database.prisma.$executeRawUnsafe(`DROP TRIGGER refuse_explode ON artifacts`),
      ]);
    }
  });

  it("answers 404 for an unknown workspace", async () => {
    const res = await importInto("ws_missing", { directives: [] });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("Workspace ws_missing not found");
  });

  it("answers 401 without the admin token", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    expect((await request(t.app).post(`/admin/v1/workspaces/${ws.workspaceId}/import`).send({})).status).toBe(401);
  });

  it("keeps each workspace's import to itself", async () => {
    const a = await createWorkspaceWithKey(t.services);
    const b = await createWorkspaceWithKey(t.services);
    await importInto(a.workspaceId, { directives: [{ name: "pii", content: "A" }], dataSources: [source("warehouse")], skills: [churnSkill()] }).expect(200);
    await importInto(b.workspaceId, { directives: [{ name: "pii", content: "B" }], dataSources: [source("warehouse")], skills: [churnSkill()] }).expect(200);
    const directiveOf = (workspaceId: string) => t.database.prisma.directive.findFirstOrThrow({ where: { workspaceId } });
    expect((await directiveOf(a.workspaceId)).content).toBe("A");
    expect((await directiveOf(b.workspaceId)).content).toBe("B");
  });
});
