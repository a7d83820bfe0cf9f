import { Client } from "pg";
import request from "supertest";
import { DEFAULT_DATABASE_POOL_SIZE } from "../../src/config";
import { postgresDatabase, type Database } from "../../src/db/database";
import { createVectorIndexMaintenance } from "../../src/indexing/vector-index-maintenance";
import { createVectorIndexRepository, type VectorTable } from "../../src/repositories/vector-index.repository";
import { METRIC_VECTOR_INDEX_BUILD_FAILURES } from "../../src/telemetry/conventions";
import { validatedArtifact } from "../support/artifacts";
import { collectMetrics } from "../support/collected-metrics";
import { adminAuth, createWorkspaceWithKey, importContent, type WorkspaceWithKey } from "../support/factories";
import { capturingLogger } from "../support/log-capture";
import { waitFor } from "../support/wait-for";
import { TEST_DATABASE_URL, createMigratedDatabase } from "../support/postgres-server";
import { createTestApp, openTestDatabase, type TestApp } from "../support/test-app";

// Before anything records: the instruments are made on first use, from the global provider.
const collected = collectMetrics();

/** A database whose every connection starts with `maintenance_work_mem` at 1 MB, far below what any IVFFlat build needs. */
async function databaseWithTinyMaintenanceMemory(): Promise<Database> {
  if (TEST_DATABASE_URL) {
    const created = await createMigratedDatabase(TEST_DATABASE_URL);
    const owner = new Client({ connectionString: created.url });
    await owner.connect();
    try {
      await owner.query(`DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET maintenance_work_mem = %L', current_database(), '1MB'); END $$`);
    } finally {
      await owner.end();
    }
    const database = postgresDatabase(created.url, { poolSize: DEFAULT_DATABASE_POOL_SIZE });
    return {
      ...database,
      close: async () => {
        await database.close();
        await created.drop();
      },
    };
  }
  // The embedded engine is one connection: its session setting is the database's.
  const database = await openTestDatabase();
  await database.executor.exec("SET maintenance_work_mem = '1MB'");
  return database;
}

const MIN_VECTORS = 20;
const ROWS = 30;

/** A bulk import of ROWS memories, query patterns and error learnings: none has a vector yet. */
const bulkImport = (tag: string) => ({
  memories: Array.from({ length: ROWS }, (_, i) => ({ type: "definition" as const, statement: `${tag} definition ${i}: an active account pays for ${i + 1} seats` })),
  dataSources: [
    {
      name: "warehouse",
      connectorType: "postgres" as const,
      status: "connected" as const,
      queryPatterns: Array.from({ length: ROWS }, (_, i) => ({ question: `${tag} seats sold in month ${i}`, sql: `SELECT sum(seats) FROM accounts WHERE month = ${i}`, successCount: 1 })),
      errorLearnings: Array.from({ length: ROWS }, (_, i) => ({
        failedSql: `SELECT seat_${i} FROM accounts`,
        errorMessage: `ERROR: column "seat_${i}" does not exist`,
        learning: `${tag}: the seats column is seats, never seat_${i}`,
      })),
    },
  ],
});

let t: TestApp;
let ws: WorkspaceWithKey;
const log = capturingLogger();

beforeAll(async () => {
  t = await createTestApp({ database: await databaseWithTinyMaintenanceMemory() });
  ws = await createWorkspaceWithKey(t.services);
});
afterAll(async () => {
  await t.close();
  await collected.shutdown();
});

/** The upkeep as the worker runs it, allowing builds `capMb` of maintenance_work_mem. */
const upkeepOf = (capMb?: number) =>
  createVectorIndexMaintenance({
    vectorIndexes: createVectorIndexRepository(t.database.prisma, { buildSession: t.database.onOneConnection, buildMemoryCapMb: capMb }),
    logger: log.logger,
    engine: t.database.kind,
    minVectors: MIN_VECTORS,
  });

/** One pass of the upkeep, allowing builds `capMb` of maintenance_work_mem. */
const maintain = (capMb?: number) => upkeepOf(capMb).runOnce();

const setting = async () => (await t.database.prisma.$queryRaw<[{ setting: string }]>`SELECT current_setting('maintenance_work_mem') AS setting`)[0].setting;

async function buildFailures(table: VectorTable): Promise<number> {
  const points = (await collected.points(METRIC_VECTOR_INDEX_BUILD_FAILURES)).filter((point) => point.attributes["db.collection.name"] === table);
  return points.reduce((sum, point) => sum + point.value, 0);
}

const indexState = async (workspaceId: string) => (await request(t.app).get(`/admin/v1/workspaces/${workspaceId}/index`).set(adminAuth(t.adminToken)).expect(200)).body;

describe("a workspace's own vector indexes", () => {
  it("start from a database whose maintenance_work_mem is 1 MB", async () => {
    expect(await setting()).toBe("1MB");
  });

  it("are not due for rows imported in bulk until they have vectors", async () => {
    await importContent(t.services, ws.workspaceId, bulkImport("bulk"));
    expect(await maintain()).toEqual([]);
    const state = await indexState(ws.workspaceId);
    expect(state.tables.memories.pending).toBeGreaterThanOrEqual(ROWS);
    expect(state.ownIndexes.memories).toMatchObject({ state: "exactScan" });
  });

  it("are all built, each raising its own session's maintenance_work_mem to what its lists need", async () => {
    for (let i = 0; i < 12; i++) await validatedArtifact(t, ws.auth, { summary: `Seats sold rose in region ${i}` });
    await t.services.indexer.runOnce();
    const built = await maintain();
    const tables = ["artifact_embeddings", "memories", "query_patterns", "error_learnings"] as const;
    expect(built.map((index) => index.table).sort()).toEqual([...tables].sort());
    for (const index of built) {
      expect(index).toMatchObject({ workspaceId: ws.workspaceId, lists: 1 });
      // pgvector's own figure for 1 list: its 10,000-row sample of 512-dimension half vectors, about 10 MB.
      expect(index.memoryKb).toBeGreaterThan(1024);
    }
    for (const table of tables) {
      expect(await createVectorIndexRepository(t.database.prisma).describe(ws.workspaceId, table)).toMatchObject({ valid: true, lists: 1 });
    }
    const state = await indexState(ws.workspaceId);
    expect(state.ownIndexes.memories).toMatchObject({ state: "built", probes: 1, error: null });
    expect(state.ownIndexes.errorLearnings).toMatchObject({ state: "built" });
    // The connections are handed back with the setting they had.
    expect(await setting()).toBe("1MB");
    expect(await maintain()).toEqual([]);
  });

  it("report a build that cannot fit the memory allowed, and do not retry it every pass", async () => {
    // On Citus the build runs on a worker node with that node's own setting (64 MB here): it fits there.
    if (process.env.WSI_TEST_CITUS) return;
    const other = await createWorkspaceWithKey(t.services);
    await importContent(t.services, other.workspaceId, bulkImport("tight"));
    await t.services.indexer.runOnce();
    expect(await maintain(4)).toEqual([]);
    const warnings = log.lines().filter((line) => line.level === 40 && line.workspaceId === other.workspaceId);
    expect(warnings.map((line) => line.table).sort()).toEqual(["error_learnings", "memories", "query_patterns"]);
    expect(warnings[0]).toMatchObject({ neededMb: 10, availableMb: 4, msg: expect.stringContaining("INDEX_BUILD_MEMORY_MB") });
    expect(await buildFailures("memories")).toBe(1);
    const state = await indexState(other.workspaceId);
    expect(state.ownIndexes.memories).toMatchObject({ state: "unbuildable", vectors: ROWS, error: expect.stringContaining("needs 10 MB") });
    expect(state.ownIndexes.artifacts).toMatchObject({ state: "exactScan" });

    // The next pass leaves it alone: nothing changed.
    expect(await maintain(4)).toEqual([]);
    expect(await buildFailures("memories")).toBe(1);
    // A larger allowance is a change: it is built then, and no longer reported.
    const built = await maintain(64);
    expect(built.filter((index) => index.workspaceId === other.workspaceId).map((index) => index.table).sort()).toEqual(["error_learnings", "memories", "query_patterns"]);
    expect((await indexState(other.workspaceId)).ownIndexes.memories).toMatchObject({ state: "built", error: null });
  });

  it("are built for one workspace alone when asked (a workspace that just moved), the others' left to the upkeep's pass", async () => {
    const [moved, bystander] = [await createWorkspaceWithKey(t.services), await createWorkspaceWithKey(t.services)];
    await importContent(t.services, moved!.workspaceId, bulkImport("moved"));
    await importContent(t.services, bystander!.workspaceId, bulkImport("bystander"));
    await t.services.indexer.runOnce();
    const built = await upkeepOf().buildFor(moved!.workspaceId);
    expect(new Set(built.map((index) => index.workspaceId))).toEqual(new Set([moved!.workspaceId]));
    expect(built.map((index) => index.table).sort()).toEqual(["error_learnings", "memories", "query_patterns"]);
    expect((await indexState(bystander!.workspaceId)).ownIndexes.memories).toMatchObject({ state: "exactScan" });
    expect((await maintain()).filter((index) => index.workspaceId === bystander!.workspaceId).map((index) => index.table).sort()).toEqual([
      "error_learnings",
      "memories",
      "query_patterns",
    ]);
  });

  it("are built by a started upkeep within seconds, and read by searches soon after, not a minute later each", async () => {
    const late = await createWorkspaceWithKey(t.services);
    await importContent(t.services, late.workspaceId, bulkImport("late"));
    await t.services.indexer.runOnce();
    // A web process's lookup, made before the index exists: it remembers there is none.
    const searches = createVectorIndexRepository(t.database.prisma);
    expect((await searches.ownIndexes(late.workspaceId)).has("memories")).toBe(false);
    const upkeep = createVectorIndexMaintenance({
      vectorIndexes: createVectorIndexRepository(t.database.prisma, { buildSession: t.database.onOneConnection }),
      logger: log.logger,
      engine: t.database.kind,
      minVectors: MIN_VECTORS,
      intervalMs: 600_000,
    });
    const started = Date.now();
    upkeep.start();
    try {
      await waitFor(async () => (await searches.ownIndexes(late.workspaceId)).has("memories"), { what: "the search to read the new memories index" });
    } finally {
      await upkeep.stop();
    }
    // The first pass 5 s after start, the lookup again 5 s after the last: far under the interval of 10 minutes given here.
    expect(Date.now() - started).toBeLessThan(45_000);
  });
});
