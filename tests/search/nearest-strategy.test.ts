import { CANDIDATES_PER_SIDE, createArtifactSearchRepository, nearestQuery, scansHnswIndex, type NearestStrategy } from "../../src/repositories/artifact-search.repository";
import { createVectorIndexRepository } from "../../src/repositories/vector-index.repository";
import type { QueryVector } from "../../src/search/query-embedding";
import { createVectorIndexMaintenance } from "../../src/search/vector-index-maintenance";
import { createLogger } from "../../src/lib/logger";
import { validatedArtifact } from "../support/artifacts";
import { createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let small: WorkspaceWithKey;
let crowded: WorkspaceWithKey;
let smallArtifact: string;

beforeAll(async () => {
  t = await createTestApp();
  small = await createWorkspaceWithKey(t.services);
  crowded = await createWorkspaceWithKey(t.services);
  smallArtifact = await validatedArtifact(t, small.auth, { summary: "Refund rate rose for mobile customers" });
  // Another workspace full of artifacts nearer to the query than the small workspace's one.
  for (let i = 0; i < 60; i++) await validatedArtifact(t, crowded.auth, { summary: `Quarterly revenue forecast for enterprise accounts ${i}` });
  await t.services.indexer.runOnce();
}, 60_000);
afterAll(() => t.close());

/** Gives every workspace with more than `minDocuments` searchable documents on a table its own index, as the worker does. */
function maintainIndexes(minDocuments: number) {
  return createVectorIndexMaintenance({
    vectorIndexes: createVectorIndexRepository(t.database.prisma),
    logger: createLogger("silent"),
    concurrently: false,
    minDocuments,
  }).runOnce();
}

const vectorOf = async (text: string): Promise<QueryVector> => ({ vector: (await t.services.embeddings.embed([text]))[0]!, model: t.services.embeddings.model });

/** The nearest artifacts as search finds them now (a fresh repository: no cached list of indexes). */
async function nearest(workspaceId: string, text: string) {
  return createArtifactSearchRepository(t.database.prisma).nearest(workspaceId, await vectorOf(text));
}

async function nearestBy(strategy: NearestStrategy, workspaceId: string, text: string): Promise<string[]> {
  const rows = await t.database.prisma.$queryRaw<Array<{ id: string }>>(nearestQuery(strategy, workspaceId, await vectorOf(text)));
  return rows.map((row) => row.id);
}

describe("nearest-neighbour strategies", () => {
  it("scans exactly while a workspace has no index of its own", async () => {
    expect((await nearest(crowded.workspaceId, "revenue forecast")).strategy).toBe("exact");
    expect(await scansHnswIndex(t.database.prisma, crowded.workspaceId, nearestQuery("exact", crowded.workspaceId, await vectorOf("revenue forecast")))).toBe(false);
  });

  it("gives an index of its own to a workspace past the size, and to no other", async () => {
    const built = await maintainIndexes(10);
    expect(built).toContainEqual({ workspaceId: crowded.workspaceId, table: "artifact_embeddings" });
    expect(built.filter((due) => due.workspaceId === small.workspaceId)).toEqual([]);
    expect(await maintainIndexes(10)).toEqual([]);
  });

  it("reads the workspace's own HNSW index once it has one", async () => {
    expect((await nearest(crowded.workspaceId, "revenue forecast")).strategy).toBe("hnsw");
    expect(await scansHnswIndex(t.database.prisma, crowded.workspaceId, nearestQuery("hnsw", crowded.workspaceId, await vectorOf("enterprise revenue forecast")))).toBe(true);
  });

  it("gives the same artifacts by either strategy", async () => {
    const exact = await nearestBy("exact", crowded.workspaceId, "enterprise revenue forecast");
    const hnsw = await nearestBy("hnsw", crowded.workspaceId, "enterprise revenue forecast");
    expect(new Set(hnsw)).toEqual(new Set(exact));
  });

  it("names each artifact once, by its nearest vector, up to the candidates of one side", async () => {
    for (const strategy of ["exact", "hnsw"] as const) {
      const ids = await nearestBy(strategy, crowded.workspaceId, "enterprise revenue forecast");
      expect(ids).toHaveLength(CANDIDATES_PER_SIDE);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it("finds a small workspace's artifacts through its own index when other workspaces' vectors are nearer", async () => {
    await maintainIndexes(0);
    const result = await nearest(small.workspaceId, "Quarterly revenue forecast for enterprise accounts");
    expect(result.strategy).toBe("hnsw");
    expect(result.ids).toEqual([smallArtifact]);
  });
});
