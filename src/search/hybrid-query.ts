import type { WordExpansion } from "./lexical-expansion";
import type { VocabularyEntry } from "./workspace-vocabulary";

/** A query's vector and the model that made it: vectors of different models are never compared. */
export interface QueryVector {
  vector: number[];
  model: string;
}

/**
 * What to search for: the caller's text, its vector (undefined when the embeddings provider did
 * not answer; a promise while it is being made, so that the words are searched meanwhile), and the
 * workspace's vocabulary (acronyms and their names), whose other side is searched too.
 */
export interface HybridQuery {
  text: string;
  vector?: QueryVector | Promise<QueryVector | undefined>;
  vocabulary?: VocabularyEntry[];
  /** Words WordNet relates to the query's words (lexical-expansion.ts), searched too and credited below the words themselves. */
  expansions?: WordExpansion[];
}
