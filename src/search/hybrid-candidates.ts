import { Prisma } from "../generated/prisma/client";
import { toVectorLiteral } from "../embeddings/embeddings-provider";
import type { QueryVector } from "./query-embedding";
import { rankCandidates, type SearchCandidate } from "./hybrid-score";
import { anyLexemeTsQuery, matchedLexemes, queryLexemes } from "./text-query";

/** How many ids each half of the search (nearest vectors, full-text hits) contributes before fusion. */
export const CANDIDATES_PER_HALF = 50;

/** What to search for: the caller's text, and its vector when the embeddings provider answered. */
export interface HybridQuery {
  text: string;
  vector?: QueryVector;
}

/** A table with `id`, `embedding`, `embedding_model` and a generated `search_document`. */
export interface HybridSearchSource {
  table: "memories" | "query_patterns" | "error_learnings";
  /** Conditions every candidate meets, on alias `t`; the workspace condition first. */
  where: Prisma.Sql;
  /** The columns each candidate returns, on alias `t`. */
  columns: Prisma.Sql;
}

export interface CandidateScores extends SearchCandidate {
  /** The caller's own words behind matchedLexemes ("enterprises", not the stem "enterpris"), in query order. */
  matchedTerms: string[];
  queryLexemeCount: number;
}

/**
 * One query that gathers candidates from the nearest vectors of the current model and from the
 * full-text hits, then reports for each its cosine similarity (null when it has no vector of this
 * model: vectors of different models are never compared) and the query words it contains.
 * Without a query vector (provider down) only the full-text half runs.
 */
export function hybridCandidatesSql(source: HybridSearchSource, query: HybridQuery): Prisma.Sql {
  const table = Prisma.raw(`"${source.table}"`);
  const lexemes = Prisma.sql`search_query.lexemes`;
  const tsQuery = anyLexemeTsQuery(lexemes);
  const vector = query.vector ? Prisma.sql`${toVectorLiteral(query.vector.vector)}::vector` : undefined;
  const nearest = vector
    ? Prisma.sql`(SELECT t.id FROM ${table} t WHERE ${source.where} AND t.embedding_model = ${query.vector!.model}
                  ORDER BY t.embedding <=> ${vector} LIMIT ${CANDIDATES_PER_HALF}) UNION`
    : Prisma.empty;
  const similarity = vector
    ? Prisma.sql`CASE WHEN t.embedding_model = ${query.vector!.model} THEN 1 - (t.embedding <=> ${vector}) END`
    : Prisma.sql`NULL::float8`;
  return Prisma.sql`
    WITH search_query AS (SELECT ${queryLexemes(query.text)} AS lexemes),
    query_terms AS (
      SELECT lower(d.token) AS term, d.lexemes, d.ord
      FROM ts_debug('english', ${query.text}) WITH ORDINALITY
        AS d(alias, description, token, dictionaries, dictionary, lexemes, ord)
      WHERE cardinality(d.lexemes) > 0
    ),
    candidate_ids AS (
      ${nearest}
      (SELECT t.id FROM ${table} t, search_query WHERE ${source.where} AND t.search_document @@ ${tsQuery}
       ORDER BY ts_rank(t.search_document, ${tsQuery}) DESC LIMIT ${CANDIDATES_PER_HALF})
    )
    SELECT ${source.columns}, t.id,
      ${similarity} AS similarity,
      matched.lexemes AS "matchedLexemes",
      ARRAY(SELECT (array_agg(qt.term ORDER BY qt.ord))[1]
            FROM query_terms qt, unnest(qt.lexemes) AS lexeme
            WHERE lexeme = ANY(matched.lexemes)
            GROUP BY lexeme ORDER BY min(qt.ord)) AS "matchedTerms",
      cardinality(search_query.lexemes) AS "queryLexemeCount"
    FROM ${table} t
    CROSS JOIN search_query
    CROSS JOIN LATERAL (SELECT ${matchedLexemes(lexemes, Prisma.sql`t.search_document`)} AS lexemes) matched
    WHERE ${source.where} AND t.id IN (SELECT id FROM candidate_ids)`;
}

/**
 * Below this cosine similarity a candidate that shares no word with the query is noise: with a
 * small corpus the nearest-vector half returns everything, related or not. Paraphrases score
 * well above it with both embedding providers.
 */
export const MIN_SIMILARITY_WITHOUT_SHARED_WORDS = 0.3;

/** The relevant candidates, scored and sorted best first, cut to `limit`. */
export function rankRelevant<C extends CandidateScores>(candidates: C[], limit: number): Array<C & { score: number }> {
  const relevant = candidates.filter(
    (candidate) => candidate.matchedLexemes.length > 0 || (candidate.similarity ?? 0) >= MIN_SIMILARITY_WITHOUT_SHARED_WORDS,
  );
  return rankCandidates(relevant, candidates[0]?.queryLexemeCount ?? 0, limit);
}
