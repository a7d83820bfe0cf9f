import type { EmbeddingsProvider } from "../embeddings/embeddings-provider";
import type { Logger } from "../lib/logger";

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
