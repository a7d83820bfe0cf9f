import { cutToModelInput, type EmbeddingsProvider } from "../embeddings/embeddings-provider";
import { measuredEmbedding } from "../embeddings/measured-call";
import type { Logger } from "../lib/logger";
import type { HybridQuery, QueryVector } from "./hybrid-query";
import { lexicalExpansion } from "./lexical-expansion";
import { searchedWords } from "./query-text";
import { vectorText, type WorkspaceVocabulary } from "./workspace-vocabulary";

/**
 * The query's vector from the provider's query lane, or undefined when the provider cannot
 * answer within its budget: search then degrades to its full-text half instead of failing.
 */
export async function embedQuery(embeddings: EmbeddingsProvider, text: string, logger: Logger): Promise<QueryVector | undefined> {
  try {
    return { vector: await measuredEmbedding(embeddings, "query", () => embeddings.embedQuery(text)), model: embeddings.model };
  } catch (error) {
    logger.warn({ err: error, model: embeddings.model }, "query embedding failed; searching by text only");
    return undefined;
  }
}

/**
 * A search of one workspace: the text's first words (searchedWords), the workspace's vocabulary,
 * the words WordNet relates to those words, and the vector of the text (as much as the model
 * reads) with the other names of the acronyms it uses (vectorText), still being made when this
 * returns: the words are searched meanwhile (hybridCandidates).
 */
export async function searchQuery(
  deps: { embeddings: EmbeddingsProvider; logger: Logger; vocabulary: WorkspaceVocabulary },
  workspaceId: string,
  text: string,
): Promise<HybridQuery> {
  const vocabulary = await deps.vocabulary.entries(workspaceId);
  const vector = embedQuery(deps.embeddings, vectorText(cutToModelInput(text, deps.embeddings.maxInputChars), vocabulary), deps.logger);
  const words = searchedWords(text);
  return { text: words, vector, vocabulary, expansions: lexicalExpansion.expandQuery(words) };
}
