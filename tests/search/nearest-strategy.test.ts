import { CANDIDATES_PER_SIDE, createArtifactSearchRepository, nearestQuery, scansOwnIndex, type NearestStrategy } from "../../src/repositories/artifact-search.repository";
import { createVectorIndexRepository, workspaceIndexName } from "../../src/repositories/vector-index.repository";
import { exactDistanceOn } from "../../src/db/vector-distance";
import type { QueryVector } from "../../src/search/hybrid-query";
import { validatedArtifact } from "../support/artifacts";
import { createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { buildOwnIndexes } from "../support/own-indexes";
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
});
afterAll(() => t.close());

/** Gives every workspace with more than `minVectors` searchable vectors on a table its own index, as the worker does. */
const maintainIndexes = (minVectors: number) => buildOwnIndexes(t, minVectors);

const vectorOf = async (text: string): Promise<QueryVector> => ({ vector: (await t.services.embeddings.embed([text]))[0]!, model: t.services.embeddings.model });

/** A fresh list of the workspaces' own indexes (nothing cached), for this engine. */
const indexRepository = () => createVectorIndexRepository(t.database.prisma, { engine: t.database.kind });

/** The nearest artifacts as search finds them now (a fresh repository: no cached list of indexes). */
async function nearest(workspaceId: string, text: string) {
  return createArtifactSearchRepository(t.database.prisma, indexRepository()).nearest(workspaceId, await vectorOf(text));
}

/** The workspace's own index of artifact vectors, as search reads it. */
async function ownIndex(workspaceId: string) {
  return (await indexRepository().ownIndexes(workspaceId)).get("artifact_embeddings");
}

async function nearestBy(strategy: NearestStrategy, workspaceId: string, text: string): Promise<string[]> {
  const own = strategy === "index" ? await ownIndex(workspaceId) : undefined;
  if (strategy === "index" && !own) throw new Error("the workspace has no index of its own");
  const rows = await t.database.prisma.$queryRaw<Array<{ id: string }>>(nearestQuery(workspaceId, await vectorOf(text), { exactDistance: exactDistanceOn(t.database.kind), own }));
  return rows.map((row) => row.id);
}

describe("nearest-neighbour strategies", () => {
  it("scans exactly while a workspace has no index of its own", async () => {
    expect((await nearest(crowded.workspaceId, "revenue forecast")).strategy).toBe("exact");
    expect(await scansOwnIndex(t.database.prisma, crowded.workspaceId, nearestQuery(crowded.workspaceId, await vectorOf("revenue forecast"), { exactDistance: exactDistanceOn(t.database.kind) }))).toBe(false);
  });

  it("counts a workspace's vectors, not its documents times the most an artifact can hold", async () => {
    // 60 artifacts of 2 vectors each: 120 vectors, where 60 × 6 would pass 150.
    expect(await maintainIndexes(150)).toEqual([]);
  });

  it("gives an index of its own to a workspace past the size, and to no other", async () => {
    const built = await maintainIndexes(10);
    expect(built).toContainEqual(expect.objectContaining({ workspaceId: crowded.workspaceId, table: "artifact_embeddings", documents: 60 }));
    expect(built.filter((due) => due.workspaceId === small.workspaceId)).toEqual([]);
    expect(await maintainIndexes(10)).toEqual([]);
  });

  it("reads the workspace's own index once it has one", async () => {
    expect((await nearest(crowded.workspaceId, "revenue forecast")).strategy).toBe("index");
    const own = await ownIndex(crowded.workspaceId);
    expect(own).toEqual({ probes: 1 });
    // On Citus the index is read on a worker, whose scan counts the coordinator does not see (tests/citus/ reads them there).
    if (process.env.WSI_TEST_CITUS) return;
    expect(await scansOwnIndex(t.database.prisma, crowded.workspaceId, nearestQuery(crowded.workspaceId, await vectorOf("enterprise revenue forecast"), { exactDistance: exactDistanceOn(t.database.kind), own }))).toBe(true);
  });

  it("gives the same artifacts by either strategy", async () => {
    const exact = await nearestBy("exact", crowded.workspaceId, "enterprise revenue forecast");
    const indexed = await nearestBy("index", crowded.workspaceId, "enterprise revenue forecast");
    expect(new Set(indexed)).toEqual(new Set(exact));
  });

  it("names each artifact once, by its nearest vector, up to the candidates of one side", async () => {
    for (const strategy of ["exact", "index"] as const) {
      const ids = await nearestBy(strategy, crowded.workspaceId, "enterprise revenue forecast");
      expect(ids).toHaveLength(CANDIDATES_PER_SIDE);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it("finds a small workspace's artifacts through its own index when other workspaces' vectors are nearer", async () => {
    await maintainIndexes(0);
    const result = await nearest(small.workspaceId, "Quarterly revenue forecast for enterprise accounts");
    expect(result.strategy).toBe("index");
    expect(result.ids).toEqual([smallArtifact]);
  });

  it("rebuilds a workspace's index once the workspace has doubled, and keeps reading it meanwhile", async () => {
    const index = workspaceIndexName(small.workspaceId, "artifact_embeddings");
    expect(await maintainIndexes(0)).toEqual([]);
    const added = [
      await validatedArtifact(t, small.auth, { summary: "Quarterly revenue forecast for enterprise accounts in EMEA" }),
      await validatedArtifact(t, small.auth, { summary: "Refunds by region over the holidays" }),
    ];
    await t.services.indexer.runOnce();
    // Validated artifacts are memories too: that index is rebuilt with it.
    expect(await maintainIndexes(0)).toContainEqual(expect.objectContaining({ workspaceId: small.workspaceId, table: "artifact_embeddings", documents: 3 }));
    expect(await indexRepository().describe(small.workspaceId, "artifact_embeddings")).toMatchObject({ name: expect.stringContaining(index), valid: true });
    const result = await nearest(small.workspaceId, "Quarterly revenue forecast for enterprise accounts");
    expect(result.strategy).toBe("index");
    expect(new Set(result.ids)).toEqual(new Set([smallArtifact, ...added]));
    expect(await maintainIndexes(0)).toEqual([]);
  });
});
