import { cutToModelInput, type EmbeddingsProvider } from "../embeddings/embeddings-provider";
import { measuredEmbedding } from "../embeddings/measured-call";
import type { Logger } from "../lib/logger";
import { ATTR_ERROR_TYPE, ATTR_SEARCH_OPERATION } from "../telemetry/conventions";
import { instruments } from "../telemetry/instruments";
import { errorTypeOf } from "../telemetry/tracing";
import type { HybridQuery, QueryVector } from "./hybrid-query";
import type { QueryVectorCache } from "./query-vector-cache";
import { lexicalExpansion } from "./lexical-expansion";
import { searchedWords } from "./query-text";
import { vectorText, type WorkspaceVocabulary } from "./workspace-vocabulary";

/** The searches that embed their query, as the log line and the fallback metric name them. */
export type SearchOperation = "artifacts" | "memories" | "query_intelligence";

/**
 * The query's vector from the provider's query lane (or `cache`, when it holds the vector of this
 * text and model), or undefined when the provider cannot answer within its budget: search then
 * degrades to its full-text half instead of failing, and says so (a warning, a count, the answer's
 * search mode). The text is partner data: never logged.
 */
export async function embedQuery(
  embeddings: EmbeddingsProvider,
  text: string,
  logger: Logger,
  search?: { operation: SearchOperation; workspaceId: string },
  cache?: QueryVectorCache,
): Promise<QueryVector | undefined> {
  const started = performance.now();
  const made = () => measuredEmbedding(embeddings, "query", () => embeddings.embedQuery(text));
  try {
    return { vector: await (cache ? cache.vectorOf(embeddings.model, text, made) : made()), model: embeddings.model };
  } catch (error) {
    const waitedMs = Math.round(performance.now() - started);
    instruments().searchLexicalFallbacks.add(1, { [ATTR_SEARCH_OPERATION]: search?.operation ?? "unknown", [ATTR_ERROR_TYPE]: errorTypeOf(error) });
    logger.warn(
      { err: error, model: embeddings.model, operation: search?.operation, workspaceId: search?.workspaceId, waitedMs },
      "query embedding failed; searching by words only (search mode lexical)",
    );
    return undefined;
  }
}

/**
 * A search of one workspace: the text's first words (searchedWords), the workspace's vocabulary,
 * the words WordNet relates to those words, and the vector of the text (as much as the model
 * reads) with the other names of the acronyms it uses (vectorText), still being made when this
 * returns: the words are searched meanwhile (hybridCandidates). The vector of the text as written
 * is started before the vocabulary is read, and used unless the vocabulary adds names to it.
 */
export async function searchQuery(
  deps: { embeddings: EmbeddingsProvider; logger: Logger; vocabulary: WorkspaceVocabulary; queryVectors?: QueryVectorCache },
  workspaceId: string,
  text: string,
  operation: SearchOperation,
): Promise<HybridQuery> {
  const modelInput = cutToModelInput(text, deps.embeddings.maxInputChars);
  const embed = (input: string) => embedQuery(deps.embeddings, input, deps.logger, { operation, workspaceId }, deps.queryVectors);
  const asWritten = embed(modelInput);
  const vocabulary = await deps.vocabulary.entries(workspaceId);
  const vectorInput = vectorText(modelInput, vocabulary);
  const words = searchedWords(text);
  return {
    text: words,
    vector: vectorInput === modelInput ? asWritten : embed(vectorInput),
    vocabulary,
    expansions: await lexicalExpansion.expandQuery(words),
  };
}
