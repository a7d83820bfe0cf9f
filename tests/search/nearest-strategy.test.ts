import { CANDIDATES_PER_SIDE, createArtifactSearchRepository, nearestQuery, scansHnswIndex } from "../../src/repositories/artifact-search.repository";
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

async function nearest(workspaceId: string, text: string, exactScanMaxVectors: number) {
  const repository = createArtifactSearchRepository(t.database.prisma, { exactScanMaxVectors });
  const [vector] = await t.services.embeddings.embed([text]);
  return repository.nearest(workspaceId, { vector: vector!, model: t.services.embeddings.model });
}

/** Whether finding the nearest artifacts by this threshold's strategy scans the HNSW index. */
async function readsHnswIndex(workspaceId: string, text: string, exactScanMaxVectors: number): Promise<boolean> {
  const [vector] = await t.services.embeddings.embed([text]);
  const strategy = (await nearest(workspaceId, text, exactScanMaxVectors)).strategy;
  return scansHnswIndex(t.database.prisma, nearestQuery(strategy, workspaceId, { vector: vector!, model: t.services.embeddings.model }));
}

describe("nearest-neighbour strategies", () => {
  it("scans exactly while a workspace has few vectors", async () => {
    expect((await nearest(small.workspaceId, "revenue forecast", 2000)).strategy).toBe("exact");
  });

  it("uses HNSW above the threshold and still finds a workspace's artifacts when other workspaces' vectors are nearer", async () => {
    const result = await nearest(small.workspaceId, "Quarterly revenue forecast for enterprise accounts", 0);
    expect(result.strategy).toBe("hnsw");
    expect(new Set(result.ids)).toEqual(new Set([smallArtifact]));
  });

  it("reads the HNSW index above the threshold, and only there", async () => {
    expect(await readsHnswIndex(crowded.workspaceId, "enterprise revenue forecast", 0)).toBe(true);
    expect(await readsHnswIndex(crowded.workspaceId, "enterprise revenue forecast", 2000)).toBe(false);
  });

  it("gives the same artifacts by either strategy", async () => {
    const exact = await nearest(crowded.workspaceId, "enterprise revenue forecast", 2000);
    const hnsw = await nearest(crowded.workspaceId, "enterprise revenue forecast", 0);
    expect(new Set(hnsw.ids)).toEqual(new Set(exact.ids));
  });

  it("names each artifact once, by its nearest vector, up to the candidates of one side", async () => {
    for (const threshold of [2000, 0]) {
      const { ids } = await nearest(crowded.workspaceId, "enterprise revenue forecast", threshold);
      expect(ids).toHaveLength(CANDIDATES_PER_SIDE);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });
});
