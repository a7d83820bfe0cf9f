import request from "supertest";
import { createVectorIndexMaintenance } from "../../src/indexing/vector-index-maintenance";
import { createLogger } from "../../src/lib/logger";
import { createVectorIndexRepository, workspaceIndexName } from "../../src/repositories/vector-index.repository";
import { validatedArtifact } from "../support/artifacts";
import { ownIndexOnWorker } from "../support/citus-shards";
import { createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { TEST_DATABASE_URL } from "../support/postgres-server";
import { createTestApp, type TestApp } from "../support/test-app";

// A workspace's own vector index on Citus is built on the one shard that holds the workspace, on
// its worker, and built again there by the upkeep when it is missing (a rebalance moved the shard).

let t: TestApp;
let ws: WorkspaceWithKey;
let url: string;

const maintain = () =>
  createVectorIndexMaintenance({ vectorIndexes: createVectorIndexRepository(t.database.prisma), logger: createLogger("silent"), engine: t.database.kind, minVectors: 0 }).runOnce();

beforeAll(async () => {
  t = await createTestApp();
  ws = await createWorkspaceWithKey(t.services);
  for (let i = 0; i < 5; i++) await validatedArtifact(t, ws.auth, { summary: `Quarterly revenue forecast for enterprise accounts ${i}` });
  await t.services.indexer.runOnce();
  const [{ database }] = await t.database.prisma.$queryRaw<[{ database: string }]>`SELECT current_database() AS database`;
  const at = new URL(TEST_DATABASE_URL!);
  at.pathname = `/${database}`;
  url = at.toString();
});
afterAll(() => t.close());

describe("a workspace's own vector index on Citus", () => {
  it("is built on the shard that holds the workspace only, not on the distributed table", async () => {
    expect(await maintain()).toContainEqual(expect.objectContaining({ workspaceId: ws.workspaceId, table: "artifact_embeddings", documents: 5 }));
    const placed = await ownIndexOnWorker(url, ws.workspaceId, "artifact_embeddings");
    expect(placed.index?.name).toBe(`${workspaceIndexName(ws.workspaceId, "artifact_embeddings")}_${placed.shard}`);
    // The coordinator's table has no such index, so Citus made none on the other 31 shards.
    const onCoordinator = await t.database.prisma.$queryRaw<Array<{ name: string }>>`
      SELECT relname::text AS name FROM pg_class WHERE relkind = 'i' AND relname LIKE ${`${workspaceIndexName(ws.workspaceId, "artifact_embeddings")}%`}`;
    expect(onCoordinator).toEqual([]);
    expect(await createVectorIndexRepository(t.database.prisma).describe(ws.workspaceId, "artifact_embeddings")).toMatchObject({ valid: true, lists: 1 });
    // The build ran in one process (the shard's parallel_workers at 0) and left the shard's storage parameters as they were.
    const [options] = await t.database.prisma.$queryRaw<[{ result: string }]>`
      SELECT result FROM master_run_on_worker(ARRAY[${placed.node.host}]::text[], ARRAY[${placed.node.port}]::int[],
        ARRAY[${`SELECT coalesce(array_to_string(reloptions, ','), 'none') FROM pg_class WHERE relname = 'artifact_embeddings_${placed.shard}'`}]::text[], false)`;
    expect(options.result).toBe("none");
  });

  it("is built again by the upkeep when its shard's node no longer has it, as after a shard move", async () => {
    const before = await ownIndexOnWorker(url, ws.workspaceId, "artifact_embeddings");
    // What a move leaves on the new node: the shard without the index.
    await t.database.prisma.$queryRaw`
      SELECT success FROM master_run_on_worker(ARRAY[${before.node.host}]::text[], ARRAY[${before.node.port}]::int[],
                                               ARRAY[${`DROP INDEX "${before.index!.name}"`}]::text[], false)`;
    expect((await ownIndexOnWorker(url, ws.workspaceId, "artifact_embeddings")).index).toBeUndefined();
    expect(await maintain()).toContainEqual(expect.objectContaining({ workspaceId: ws.workspaceId, table: "artifact_embeddings", documents: 5 }));
    expect((await ownIndexOnWorker(url, ws.workspaceId, "artifact_embeddings")).index?.name).toBe(before.index!.name);
    const found = await request(t.app).get("/api/v1/artifacts").query({ query: "enterprise revenue forecast" }).set(ws.auth).expect(200);
    expect(found.body.results).toHaveLength(5);
  });
});
