import { createHousekeeping } from "../../src/jobs/housekeeping";
import { createLogger } from "../../src/lib/logger";
import { createWorkspaceWithKey, importContent, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

const HOUR = 60 * 60 * 1000;
let t: TestApp;
let ws: WorkspaceWithKey;
beforeAll(async () => {
  t = await createTestApp();
  ws = await createWorkspaceWithKey(t.services);
});
afterAll(() => t.close());

const housekeepingAt = (time: number, batchSize = 500) =>
  createHousekeeping({ db: t.database.prisma, clock: { now: () => new Date(time) }, logger: createLogger("silent"), batchSize });

const idempotencyRecord = (id: string, createdAt: Date) =>
  t.database.prisma.idempotencyRecord.create({
    data: { id, workspaceId: ws.workspaceId, apiKeyId: ws.keyId, idempotencyKey: id, requestHash: "h", responseStatus: 201, responseBody: {}, createdAt },
  });

describe("housekeeping", () => {
  it("removes idempotency records past their 24-hour window, in batches, and keeps younger ones", async () => {
    const now = Date.now();
    for (let i = 0; i < 5; i++) await idempotencyRecord(`idem_old${i}`, new Date(now - 25 * HOUR));
    await idempotencyRecord("idem_young", new Date(now - 23 * HOUR));
    const removed = await housekeepingAt(now, 2).runOnce();
    expect(removed.idempotencyRecords).toBe(5);
    const left = await t.database.prisma.idempotencyRecord.findMany({ where: { workspaceId: ws.workspaceId }, select: { id: true } });
    expect(left).toEqual([{ id: "idem_young" }]);
  });

  it("removes a skill blob an import replaced once its grace period is over, and keeps the one in use", async () => {
    const skill = (content: string) => ({
      skills: [{ name: "sql", description: "d", source: "authored" as const, files: [{ path: "SKILL.md", content }] }],
    });
    await importContent(t.services, ws.workspaceId, skill("first version"));
    await importContent(t.services, ws.workspaceId, skill("second version"));
    const keys = async () => (await t.database.prisma.storedBlob.findMany({ select: { key: true } })).map((blob) => blob.key);
    const [inUse] = await t.database.prisma.skillFile.findMany({ where: { workspaceId: ws.workspaceId }, select: { storageKey: true } });
    expect(await keys()).toHaveLength(2);

    expect((await housekeepingAt(Date.now()).runOnce()).orphanedBlobs).toBe(0);
    expect((await housekeepingAt(Date.now() + 2 * HOUR).runOnce()).orphanedBlobs).toBe(1);
    expect(await keys()).toEqual([inUse!.storageKey]);
    const file = await t.services.skills.getFile(ws.workspaceId, "sql", "SKILL.md");
    expect(file.content).toBe("second version");
  });

  it("finds an orphaned blob past a whole batch of old blobs still in use", async () => {
    const other = await createWorkspaceWithKey(t.services);
    await importContent(t.services, other.workspaceId, {
      skills: [{ name: "kit", description: "d", source: "authored" as const, files: ["SKILL.md", "a.md", "b.md"].map((path) => ({ path, content: `${path} body` })) }],
    });
    // Last in key order, so that every batch before it holds only blobs in use.
    await t.database.prisma.storedBlob.create({ data: { key: `workspaces/${other.workspaceId}/zzzz-orphan`, data: Buffer.from("old"), createdAt: new Date(Date.now() - 3 * HOUR) }, select: { key: true } });
    const inUse = (await t.database.prisma.skillFile.findMany({ where: { workspaceId: other.workspaceId }, select: { storageKey: true } })).map((f) => f.storageKey);
    expect(inUse).toHaveLength(3);
    expect((await housekeepingAt(Date.now() + 2 * HOUR, 1).runOnce()).orphanedBlobs).toBe(1);
    const left = (await t.database.prisma.storedBlob.findMany({ where: { key: { startsWith: `workspaces/${other.workspaceId}/` } }, select: { key: true } })).map((b) => b.key);
    expect(left.sort()).toEqual([...inUse].sort());
  });

  it("removes expired console sessions and failed sign-ins too old to slow anyone down, and keeps the rest", async () => {
    const now = Date.now();
    const reviewer = await t.database.prisma.reviewer.create({ data: { id: "rev_hk", email: "hk@acme.example", name: "HK", passwordHash: "x" } });
    await t.database.prisma.reviewerSession.createMany({
      data: [
        { id: "ses_old", reviewerId: reviewer.id, tokenHash: "old", expiresAt: new Date(now - HOUR) },
        { id: "ses_live", reviewerId: reviewer.id, tokenHash: "live", expiresAt: new Date(now + HOUR) },
      ],
    });
    await t.database.prisma.signInFailure.createMany({
      data: [
        { subject: "account:old@acme.example", failures: 3, lastFailedAt: new Date(now - 2 * HOUR) },
        { subject: "account:recent@acme.example", failures: 3, lastFailedAt: new Date(now - 60_000) },
      ],
    });
    const removed = await housekeepingAt(now).runOnce();
    expect(removed).toMatchObject({ expiredSessions: 1, forgottenSignInFailures: 1 });
    expect((await t.database.prisma.reviewerSession.findMany({ select: { id: true } })).map((s) => s.id)).toEqual(["ses_live"]);
    expect((await t.database.prisma.signInFailure.findMany({ select: { subject: true } })).map((f) => f.subject)).toEqual(["account:recent@acme.example"]);
  });

  // On Citus the rows and their statistics are the shards', on the workers; the coordinator's table is empty.
  (process.env.WSI_TEST_CITUS ? it.skip : it)("refreshes the planner's statistics of the searched tables when asked to (the embedded database)", async () => {
    await importContent(t.services, ws.workspaceId, {
      memories: Array.from({ length: 7 }, (_, i) => ({ type: "rule" as const, statement: `Rule number ${i}` })),
    });
    const estimate = async () =>
      (await t.database.prisma.$queryRaw<[{ rows: number }]>`SELECT reltuples::int AS rows FROM pg_class WHERE relname = 'memories'`)[0].rows;
    const rows = await t.database.prisma.memory.count();
    await createHousekeeping({ db: t.database.prisma, clock: { now: () => new Date() }, logger: createLogger("silent"), refreshPlannerStatistics: true }).runOnce();
    expect(await estimate()).toBe(rows);
  });

  it("stops at once when idle, and runs no pass afterwards", async () => {
    const housekeeping = createHousekeeping({ db: t.database.prisma, clock: { now: () => new Date() }, logger: createLogger("silent"), intervalMs: 10 });
    housekeeping.start();
    const started = Date.now();
    await housekeeping.stop();
    expect(Date.now() - started).toBeLessThan(100);
    await idempotencyRecord("idem_after_stop", new Date(Date.now() - 25 * HOUR));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await t.database.prisma.idempotencyRecord.count({ where: { id: "idem_after_stop" } })).toBe(1);
  });
});
