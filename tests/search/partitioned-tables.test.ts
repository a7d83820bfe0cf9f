import request from "supertest";
import { createArtifactSearchRepository, nearestQuery, scansOwnIndex } from "../../src/repositories/artifact-search.repository";
import { createVectorIndexRepository, workspaceIndexName } from "../../src/repositories/vector-index.repository";
import { createVectorIndexMaintenance } from "../../src/search/vector-index-maintenance";
import { createLogger } from "../../src/lib/logger";
import { validatedArtifact } from "../support/artifacts";
import { createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

// An operator who outgrows one table splits it into hash partitions by workspace_id
// (docs/deployment.md §6). Here artifact_embeddings is split the way that section says, and
// search, the indexer and each large workspace's own vector index keep working on it.

const PARTITIONS = 4;

/** artifact_embeddings as a table partitioned by workspace: the same columns, keys and foreign key. */
const PARTITION_ARTIFACT_EMBEDDINGS = `
  CREATE TABLE "artifact_embeddings_by_workspace" (LIKE "artifact_embeddings" INCLUDING ALL EXCLUDING INDEXES) PARTITION BY HASH ("workspace_id");
  ${Array.from({ length: PARTITIONS }, (_, r) =>
    `CREATE TABLE "artifact_embeddings_p${r}" PARTITION OF "artifact_embeddings_by_workspace" FOR VALUES WITH (MODULUS ${PARTITIONS}, REMAINDER ${r});`).join("\n")}
  INSERT INTO "artifact_embeddings_by_workspace" SELECT * FROM "artifact_embeddings";
  DROP TABLE "artifact_embeddings";
  ALTER TABLE "artifact_embeddings_by_workspace" RENAME TO "artifact_embeddings";
  ALTER TABLE "artifact_embeddings" ADD CONSTRAINT "artifact_embeddings_pkey" PRIMARY KEY ("workspace_id", "id");
  CREATE UNIQUE INDEX "artifact_embeddings_workspace_id_artifact_id_facet_part_key" ON "artifact_embeddings"("workspace_id", "artifact_id", "facet", "part");
  ALTER TABLE "artifact_embeddings" ADD CONSTRAINT "artifact_embeddings_workspace_id_artifact_id_fkey" FOREIGN KEY ("workspace_id", "artifact_id")
    REFERENCES "artifacts"("workspace_id", "id") ON DELETE CASCADE ON UPDATE CASCADE`;

let t: TestApp;
let crowded: WorkspaceWithKey;
let small: WorkspaceWithKey;

beforeAll(async () => {
  t = await createTestApp();
  await t.database.executor.exec(PARTITION_ARTIFACT_EMBEDDINGS);
  crowded = await createWorkspaceWithKey(t.services);
  small = await createWorkspaceWithKey(t.services);
  for (let i = 0; i < 30; i++) await validatedArtifact(t, crowded.auth, { summary: `Quarterly revenue forecast for enterprise accounts ${i}` });
  await validatedArtifact(t, small.auth, { summary: "Refund rate rose for mobile customers", content: "Mobile refunds rose.\nMostly annual plans." });
  await t.services.indexer.runOnce();
}, 60_000);
afterAll(() => t.close());

const vectorOf = async (text: string) => ({ vector: (await t.services.embeddings.embed([text]))[0]!, model: t.services.embeddings.model });

/** The partition that holds a workspace's vector rows, and the one its own index is built on. */
async function placement(workspaceId: string) {
  const [row] = await t.database.executor.query<{ rows: string; index: string | null }>(
    `SELECT (SELECT tableoid::regclass::text FROM "artifact_embeddings" WHERE "workspace_id" = $1 LIMIT 1) AS rows,
            (SELECT x.indrelid::regclass::text FROM pg_index x WHERE x.indexrelid = to_regclass($2)) AS index`,
    [workspaceId, `"${workspaceIndexName(workspaceId, "artifact_embeddings")}"`],
  );
  return row!;
}

describe("artifact vectors in hash partitions by workspace", () => {
  it("stores each workspace's vectors, body chunks included, in one partition", async () => {
    const rows = await t.database.executor.query<{ partitions: number; chunks: number }>(
      `SELECT count(DISTINCT tableoid)::int AS partitions, count(*) FILTER (WHERE part > 0)::int AS chunks FROM "artifact_embeddings" WHERE "workspace_id" = $1`,
      [small.workspaceId],
    );
    expect(rows).toEqual([{ partitions: 1, chunks: 1 }]);
  });

  it("finds a workspace's artifacts by meaning and by words", async () => {
    const res = await request(t.app).get("/api/v1/artifacts?query=mobile%20refunds").set(small.auth).expect(200);
    expect(res.body.results.map((result: { summary: string }) => result.summary)).toEqual(["Refund rate rose for mobile customers"]);
  });

  it("builds a large workspace's own index on the partition that holds it, and searches through it", async () => {
    const built = await createVectorIndexMaintenance({
      vectorIndexes: createVectorIndexRepository(t.database.prisma),
      logger: createLogger("silent"),
      // As the worker builds on PostgreSQL, where a partitioned table refuses CONCURRENTLY.
      concurrently: t.database.kind === "postgres",
      minVectors: 10,
    }).runOnce();
    expect(built).toContainEqual({ workspaceId: crowded.workspaceId, table: "artifact_embeddings", documents: 30 });
    const { rows, index } = await placement(crowded.workspaceId);
    expect(rows).toMatch(/^artifact_embeddings_p\d$/);
    expect(index).toBe(rows);
    const search = createArtifactSearchRepository(t.database.prisma);
    const query = await vectorOf("enterprise revenue forecast");
    const found = await search.nearest(crowded.workspaceId, query);
    expect(found.strategy).toBe("index");
    const own = (await createVectorIndexRepository(t.database.prisma).ownIndexes(crowded.workspaceId)).get("artifact_embeddings");
    expect(await scansOwnIndex(t.database.prisma, crowded.workspaceId, nearestQuery(crowded.workspaceId, query, own))).toBe(true);
    const exact = await t.database.prisma.$queryRaw<Array<{ id: string }>>(nearestQuery(crowded.workspaceId, query));
    expect(found.ids).toEqual(exact.map((row) => row.id));
  });
});
