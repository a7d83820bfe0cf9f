import type { Alternative } from "./workspace-vocabulary";

/**
 * The one scoring of every search (artifacts, memories, query patterns, error learnings): a
 * candidate's meaning (cosine similarity of its vector to the query's) and its words (the share of
 * the query's informative words it contains, a headline word counting more than a body word)
 * fused into one score in [0, 1], with a floor below which a candidate is not returned.
 * docs/search.md explains the figures and the judged-set runs that chose them.
 */
export const FUSION = {
  /** Cosine similarity at or below which meaning adds nothing (unrelated text lands around 0.1–0.3). */
  similarityZero: 0.25,
  /** Cosine similarity at or above which meaning counts in full. */
  similarityOne: 0.75,
  vectorWeight: 0.5,
  textWeight: 0.5,
  /** How much a query word counts by the field it is found in (tsvector weights A–D). */
  fieldWeights: { A: 1, B: 0.8, C: 0.6, D: 0.4 } as Record<string, number>,
  /** Below this score a candidate is left out: an unrelated query returns nothing or little. */
  minScore: 0.1,
  /**
   * The cosine similarity a candidate needs when no word of the query is a word the collection or
   * the dictionary knows (knowsNoWord): an emoji, `$(python3)`, `{{7*7}}`. Meaning is then the only
   * evidence, and the encoder places such text 0.35–0.55 from unrelated items, as near as a real
   * paraphrase; only a candidate whose meaning counts in full stands out from that background.
   */
  wordlessSimilarity: 0.75,
  /**
   * How much a query word counts when a candidate holds, instead of it, the other side of a
   * vocabulary entry ("mean time between failures" for "MTBF"): times that side's best field.
   */
  vocabularyWeight: 0.9,
  /**
   * How much a query word counts when a candidate holds, instead of it, a word WordNet relates to
   * it ("daily" for "day"; lexical-expansion.ts): below the vocabulary, which is the workspace's own.
   * 0.3: at 0.5 and 0.7 a held-out query-intelligence question fell out of the top 3.
   */
  expansionWeight: 0.3,
  /**
   * The same for a derivationally related form or pertainym ("daily" for "day"): the same word in
   * another part of speech, which the stemmer does not conflate, so nearer the word than a synonym.
   */
  derivedWeight: 0.3,
};

export interface SearchCandidate {
  id: string;
  /** Cosine similarity to the query, or null when its vector is pending or of another model. */
  similarity: number | null;
  /** Query lexemes the document contains, and for each the best field (A–D) it appears in. */
  matchedLexemes: string[];
  matchedWeights: string[];
}

/** What the whole searched collection says about the query's lexemes. */
export interface LexemeStats {
  /** Documents in the searched collection. */
  documents: number;
  /** For each lexeme searched (the query's and its vocabulary alternatives), how many documents contain it. */
  documentFrequency: Record<string, number>;
  /** The query's own lexemes; without it, every lexeme of documentFrequency. */
  queryLexemes?: string[];
  /** For a query lexeme, the lexemes of each vocabulary entry that may stand in for it (alternativesOf). */
  alternatives?: Map<string, Alternative[]>;
  /** Whether WordNet knows a word of the query (relates other words to it), though no document may hold it. */
  dictionaryWord?: boolean;
}

/** Rarer words say more about what is wanted (BM25's idf, always positive). */
function idf(stats: LexemeStats, lexeme: string): number {
  const df = stats.documentFrequency[lexeme] ?? 0;
  return Math.log(1 + (stats.documents - df + 0.5) / (df + 0.5));
}

/**
 * The idf-weighted share of the query's lexemes the candidate contains, each by its best field.
 * A lexeme no document of the collection holds cannot tell documents apart, so it stays out of the
 * share (in a small workspace its idf would otherwise outweigh every word that does match); a query
 * mostly made of such lexemes is still a weaker match, so the share is multiplied by the part of
 * the query's lexemes the collection knows. A query lexeme the candidate lacks still counts, at
 * FUSION.vocabularyWeight, when the candidate holds enough of one of its vocabulary alternatives
 * (HELD); such a lexeme is known when its alternative is, with the alternative's idf.
 */
export function lexicalScore(candidate: SearchCandidate, stats: LexemeStats): number {
  const lexemes = stats.queryLexemes ?? Object.keys(stats.documentFrequency);
  const alternatives = stats.alternatives ?? new Map<string, Alternative[]>();
  const fieldOf = new Map(candidate.matchedLexemes.map((lexeme, i) => [lexeme, FUSION.fieldWeights[candidate.matchedWeights[i] ?? "D"] ?? 0]));
  const knownIdf = (lexeme: string) => ((stats.documentFrequency[lexeme] ?? 0) > 0 ? idf(stats, lexeme) : 0);
  const meanIdf = (alternative: Alternative) => alternative.lexemes.reduce((sum, lexeme) => sum + knownIdf(lexeme), 0) / alternative.lexemes.length;
  const idfOf = (lexeme: string) => knownIdf(lexeme) || Math.max(0, ...(alternatives.get(lexeme) ?? []).map(meanIdf));
  const weightOf = (lexeme: string) => {
    const own = fieldOf.get(lexeme);
    if (own !== undefined) return own;
    let best = 0;
    for (const alternative of alternatives.get(lexeme) ?? []) {
      const held = alternative.lexemes.filter((other) => fieldOf.has(other));
      if (held.length > 0 && held.length >= alternative.needed) best = Math.max(best, (alternative.weight ?? FUSION.vocabularyWeight) * Math.max(...held.map((other) => fieldOf.get(other)!)));
    }
    return best;
  };
  const known = lexemes.filter((lexeme) => idfOf(lexeme) > 0);
  const total = known.reduce((sum, lexeme) => sum + idfOf(lexeme), 0);
  if (total === 0) return 0;
  const matched = known.reduce((sum, lexeme) => sum + idfOf(lexeme) * weightOf(lexeme), 0);
  return Math.min(1, (matched / total) * (known.length / lexemes.length));
}

/**
 * Whether no word of the query is known: WordNet knows none of them, and no document holds one of
 * its lexemes or a vocabulary or WordNet alternative of one (a query of emoji or symbols has no
 * lexemes at all). A real word the workspace lacks ("attrition") is still a word, and is searched
 * by its meaning as usual.
 */
export function knowsNoWord(stats: LexemeStats): boolean {
  if (stats.dictionaryWord) return false;
  const lexemes = stats.queryLexemes ?? Object.keys(stats.documentFrequency);
  const held = (lexeme: string) => (stats.documentFrequency[lexeme] ?? 0) > 0;
  return !lexemes.some((lexeme) => held(lexeme) || (stats.alternatives?.get(lexeme) ?? []).some((alternative) => alternative.lexemes.some(held)));
}

export function semanticScore(similarity: number | null): number {
  if (similarity === null) return 0;
  return Math.min(1, Math.max(0, (similarity - FUSION.similarityZero) / (FUSION.similarityOne - FUSION.similarityZero)));
}

export function fusedScore(candidate: SearchCandidate, stats: LexemeStats): number {
  const lexical = lexicalScore(candidate, stats);
  const score = FUSION.vectorWeight * semanticScore(candidate.similarity) + FUSION.textWeight * lexical;
  return Math.round(score * 1e6) / 1e6;
}

/**
 * The candidates at or above the floor, scored and sorted best first, cut to `limit`. Equal scores
 * are common when meaning adds nothing (a one-word query lands below FUSION.similarityZero for
 * every item holding the word): the nearer by raw similarity goes first, then the id, so the order
 * is stable. A query of no known word (knowsNoWord) also needs FUSION.wordlessSimilarity.
 */
export function rankCandidates<C extends SearchCandidate>(candidates: C[], stats: LexemeStats, limit: number): Array<C & { score: number }> {
  const wordless = knowsNoWord(stats);
  return candidates
    .map((candidate) => ({ ...candidate, score: fusedScore(candidate, stats) }))
    .filter((candidate) => candidate.score >= FUSION.minScore && (!wordless || (candidate.similarity ?? 0) >= FUSION.wordlessSimilarity))
    .sort((a, b) => b.score - a.score || (b.similarity ?? -1) - (a.similarity ?? -1) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, limit);
}
