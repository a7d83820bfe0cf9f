/** How much of the score comes from meaning (embeddings) and how much from the query's own words. */
export const VECTOR_WEIGHT = 0.7;
export const TEXT_WEIGHT = 0.3;

export interface SearchCandidate {
  id: string;
  /** Cosine similarity to the query, or null when either vector is missing (pending, or another model). */
  similarity: number | null;
  /** Query lexemes the document contains. */
  matchedLexemes: string[];
}

/**
 * Fuses semantic similarity with lexical coverage into one score in [0, 1]. Coverage (the share of
 * the query's words a document contains) lifts exact names — a table, a metric — that embeddings
 * blur, and keeps a document searchable while its vector is still pending.
 */
export function hybridScore(candidate: SearchCandidate, queryLexemeCount: number): number {
  const semantic = candidate.similarity === null ? 0 : Math.min(1, Math.max(0, candidate.similarity));
  const coverage = queryLexemeCount === 0 ? 0 : Math.min(1, candidate.matchedLexemes.length / queryLexemeCount);
  return Math.round((VECTOR_WEIGHT * semantic + TEXT_WEIGHT * coverage) * 1e6) / 1e6;
}

/** Candidates scored and sorted best first (ties by id, so the order is stable), cut to `limit`. */
export function rankCandidates<C extends SearchCandidate>(
  candidates: C[],
  queryLexemeCount: number,
  limit: number,
): Array<C & { score: number }> {
  return candidates
    .map((candidate) => ({ ...candidate, score: hybridScore(candidate, queryLexemeCount) }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, limit);
}
