import type { EmbeddingsProvider } from "../../src/embeddings/embeddings-provider";
import { systemClock } from "../../src/lib/clock";
import { createLogger } from "../../src/lib/logger";
import { createQueryVectorCache } from "../../src/search/query-vector-cache";
import { createServices } from "../../src/services";
import { createWorkspaceWithKey, importContent } from "../support/factories";
import { realisticQuestion, realisticWorkspace } from "../support/realistic-workspace";
import { createTestApp, type TestApp } from "../support/test-app";

// Agents ask the same questions again: a process keeps the vectors of recent queries. A search
// answers the same with the cache as without it; a query asked by several searches at once is
// embedded once.

/** The real model, its query lane counted. */
function counted(embeddings: EmbeddingsProvider) {
  const asked: string[] = [];
  const provider: EmbeddingsProvider = {
    model: embeddings.model,
    maxInputChars: embeddings.maxInputChars,
    indexLanes: embeddings.indexLanes,
    embed: (texts) => embeddings.embed(texts),
    embedQuery: (text) => {
      asked.push(text);
      return embeddings.embedQuery(text);
    },
    close: async () => undefined,
  };
  return { provider, asked };
}

let t: TestApp;
let workspaceId: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ workspaceId } = await createWorkspaceWithKey(t.services));
  await importContent(t.services, workspaceId, realisticWorkspace({ artifacts: 24, memories: 10 }));
  await t.services.indexer.runOnce(workspaceId);
}, 180_000);
afterAll(() => t.close());

const servicesWith = (embeddings: EmbeddingsProvider, queryEmbeddingCacheEntries?: number) =>
  createServices({ database: t.database, clock: systemClock, logger: createLogger("silent"), embeddings, queryEmbeddingCacheEntries });

it("answers every search the same with the cache as without it, asked once or again", async () => {
  const cached = servicesWith(t.services.embeddings);
  const uncached = servicesWith(t.services.embeddings, 0);
  const questions = [0, 1, 2, 3, 4, 5].map((n) => realisticQuestion(n, 0));
  for (const question of [...questions, ...questions]) {
    const [withCache, without] = await Promise.all([cached.artifacts.searchWorkspace(workspaceId, question, 10), uncached.artifacts.searchWorkspace(workspaceId, question, 10)]);
    expect(withCache.searchMode).toBe("hybrid");
    expect(withCache.hits.map((hit) => [hit.id, hit.score])).toEqual(without.hits.map((hit) => [hit.id, hit.score]));
    expect(withCache.hits.length).toBeGreaterThan(0);
  }
});

it("embeds a question asked again, by several searches at once or by another kind of search, once", async () => {
  const { provider, asked } = counted(t.services.embeddings);
  const services = servicesWith(provider);
  const question = realisticQuestion(7, 0);
  await Promise.all([1, 2, 3].map(() => services.artifacts.searchWorkspace(workspaceId, question, 5)));
  // Recall shares the process's cache with artifact search.
  expect((await services.memories.recall(workspaceId, question)).searchMode).toBe("hybrid");
  await services.artifacts.searchWorkspace(workspaceId, question, 5);
  expect(asked.filter((text) => text === question)).toHaveLength(1);
});

it("embeds every time with no entries kept", async () => {
  const { provider, asked } = counted(t.services.embeddings);
  const services = servicesWith(provider, 0);
  const question = realisticQuestion(8, 0);
  await services.artifacts.searchWorkspace(workspaceId, question, 5);
  await services.artifacts.searchWorkspace(workspaceId, question, 5);
  expect(asked.filter((text) => text === question)).toHaveLength(2);
});

it("keeps no failed vector: the next look-up makes it again", async () => {
  const cache = createQueryVectorCache(10);
  let calls = 0;
  const make = () => {
    calls += 1;
    return calls === 1 ? Promise.reject(new Error("the model did not answer")) : t.services.embeddings.embedQuery("churn by region");
  };
  await expect(cache.vectorOf("m", "churn by region", make)).rejects.toThrow("the model did not answer");
  expect(await cache.vectorOf("m", "churn by region", make)).toHaveLength(512);
  expect(await cache.vectorOf("m", "churn by region", make)).toHaveLength(512);
  expect(calls).toBe(2);
});
