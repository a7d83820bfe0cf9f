import type { EmbeddingsProvider } from "../embeddings/embeddings-provider";
import type { Logger } from "../lib/logger";
import type { MemoryCandidate, MemoryRepository } from "../repositories/memory.repository";
import { lexemeStatsOf } from "../search/hybrid-candidates";
import { rankCandidates } from "../search/hybrid-fusion";
import { embedQuery } from "../search/query-embedding";

/** How many memories one recall returns at most. */
export const RECALL_LIMIT = 10;

export function createMemoryService(deps: {
  memories: Pick<MemoryRepository, "searchActiveCandidates">;
  embeddings: EmbeddingsProvider;
  logger: Logger;
}) {
  return {
    /** The workspace's active memories relevant to the query, best first. */
    async recall(workspaceId: string, text: string): Promise<Array<MemoryCandidate & { score: number }>> {
      const vector = await embedQuery(deps.embeddings, text, deps.logger);
      const candidates = await deps.memories.searchActiveCandidates(workspaceId, { text, vector });
      return rankCandidates(candidates, lexemeStatsOf(candidates), RECALL_LIMIT);
    },
  };
}

export type MemoryService = ReturnType<typeof createMemoryService>;
