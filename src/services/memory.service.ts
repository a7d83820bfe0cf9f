import type { EmbeddingsProvider } from "../embeddings/embeddings-provider";
import type { Logger } from "../lib/logger";
import type { MemoryCandidate, MemoryRepository } from "../repositories/memory.repository";
import { rankFound } from "../search/hybrid-candidates";
import { searchQuery } from "../search/query-embedding";
import { searchModeOf, type Searched } from "../search/search-mode";
import type { WorkspaceVocabulary } from "../search/workspace-vocabulary";
import type { QueryVectorCache } from "../search/query-vector-cache";

/** How many memories one recall returns at most. */
export const RECALL_LIMIT = 10;

export function createMemoryService(deps: {
  memories: Pick<MemoryRepository, "searchActiveCandidates">;
  embeddings: EmbeddingsProvider;
  logger: Logger;
  vocabulary: WorkspaceVocabulary;
  /** Query vectors made recently (query-vector-cache.ts); none kept when absent. */
  queryVectors?: QueryVectorCache;
}) {
  return {
    /** The workspace's active memories relevant to the query, best first. */
    async recall(workspaceId: string, text: string): Promise<Searched<MemoryCandidate & { score: number }>> {
      const query = await searchQuery(deps, workspaceId, text, "memories");
      const candidates = await deps.memories.searchActiveCandidates(workspaceId, query);
      return { hits: rankFound(candidates, query, RECALL_LIMIT), searchMode: await searchModeOf(query) };
    },
  };
}

export type MemoryService = ReturnType<typeof createMemoryService>;
