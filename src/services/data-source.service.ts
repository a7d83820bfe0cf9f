import type { EmbeddingsProvider } from "../embeddings/embeddings-provider";
import { notFound } from "../domain/errors";
import type { Logger } from "../lib/logger";
import type { DataSourceRepository } from "../repositories/data-source.repository";
import type { QueryIntelligenceRepository } from "../repositories/query-intelligence.repository";
import { rankFound } from "../search/hybrid-candidates";
import { searchQuery } from "../search/query-embedding";
import { searchModeOf } from "../search/search-mode";
import type { WorkspaceVocabulary } from "../search/workspace-vocabulary";
import type { QueryVectorCache } from "../search/query-vector-cache";

/** The contract's cap on patterns and on learnings in one answer. */
export const QUERY_INTELLIGENCE_LIMIT = 10;

export function createDataSourceService(deps: {
  dataSources: Pick<DataSourceRepository, "listByWorkspace" | "findByName">;
  queryIntelligence: Pick<QueryIntelligenceRepository, "searchPatternCandidates" | "searchLearningCandidates">;
  embeddings: EmbeddingsProvider;
  logger: Logger;
  vocabulary: WorkspaceVocabulary;
  /** Query vectors made recently (query-vector-cache.ts); none kept when absent. */
  queryVectors?: QueryVectorCache;
}) {
  return {
    list: (workspaceId: string) => deps.dataSources.listByWorkspace(workspaceId),

    /** The source's patterns and learnings relevant to the question, best first, at most 10 of each. */
    async queryIntelligence(workspaceId: string, name: string, question: string) {
      const source = await deps.dataSources.findByName(workspaceId, name);
      if (!source) throw notFound(`No data source named "${name}" in this workspace`);
      const query = await searchQuery(deps, workspaceId, question, "query_intelligence");
      const [patterns, learnings] = await Promise.all([
        deps.queryIntelligence.searchPatternCandidates(workspaceId, source.id, query),
        deps.queryIntelligence.searchLearningCandidates(workspaceId, source.id, query),
      ]);
      return {
        patterns: rankFound(patterns, query, QUERY_INTELLIGENCE_LIMIT),
        errorLearnings: rankFound(learnings, query, QUERY_INTELLIGENCE_LIMIT),
        searchMode: await searchModeOf(query),
      };
    },
  };
}

export type DataSourceService = ReturnType<typeof createDataSourceService>;
