import type { EmbeddingsProvider } from "../embeddings/embeddings-provider";
import type { Logger } from "../lib/logger";
import type { HybridQuery } from "./hybrid-candidates";
import type { WorkspaceVocabulary } from "./workspace-vocabulary";

export interface QueryVector {
  vector: number[];
  model: string;
}

/**
 * The query's vector from the provider's query lane, or undefined when the provider cannot
 * answer within its budget: search then degrades to its full-text half instead of failing.
 */
export async function embedQuery(embeddings: EmbeddingsProvider, text: string, logger: Logger): Promise<QueryVector | undefined> {
  try {
    return { vector: await embeddings.embedQuery(text), model: embeddings.model };
  } catch (error) {
    logger.warn({ err: error, model: embeddings.model }, "query embedding failed; searching by text only");
    return undefined;
  }
}

/** A search of one workspace: the text, its vector and the workspace's vocabulary, fetched together. */
export async function searchQuery(
  deps: { embeddings: EmbeddingsProvider; logger: Logger; vocabulary: WorkspaceVocabulary },
  workspaceId: string,
  text: string,
): Promise<HybridQuery> {
  const [vector, vocabulary] = await Promise.all([embedQuery(deps.embeddings, text, deps.logger), deps.vocabulary.entries(workspaceId)]);
  return { text, vector, vocabulary };
}
