import type { HybridQuery } from "./hybrid-query";

/**
 * How a search ranked: `hybrid`, by the query's meaning and its words; `lexical`, by its words
 * alone, because the query's vector did not come within the budget (or the provider is down).
 * Callers are told, since a lexical answer to a paraphrase is a poorer answer, not a poorer match.
 */
export const SEARCH_MODES = ["hybrid", "lexical"] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

/** A search's ranked hits and how they were ranked. */
export interface Searched<T> {
  hits: T[];
  searchMode: SearchMode;
}

export async function searchModeOf(query: HybridQuery): Promise<SearchMode> {
  return (await query.vector) ? "hybrid" : "lexical";
}
