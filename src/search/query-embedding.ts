import type { EmbeddingsProvider } from "../embeddings/embeddings-provider";
import type { Logger } from "../lib/logger";

export interface QueryVector {
  vector: number[];
  model: string;
}

/**
 * The query's vector, or undefined when the provider cannot answer: search then degrades to its
 * full-text half instead of failing the request.
 */
export async function embedQuery(
  embeddings: EmbeddingsProvider,
  text: string,
  logger: Logger,
): Promise<QueryVector | undefined> {
  try {
    const [vector] = await embeddings.embed([text]);
    return vector ? { vector, model: embeddings.model } : undefined;
  } catch (error) {
    logger.warn({ err: error, model: embeddings.model }, "query embedding failed; searching by text only");
    return undefined;
  }
}
