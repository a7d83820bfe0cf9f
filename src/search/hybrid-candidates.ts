import { Prisma } from "../generated/prisma/client";
import { toVectorLiteral } from "../embeddings/embeddings-provider";
import type { LexemeStats, SearchCandidate } from "./hybrid-fusion";
import type { QueryVector } from "./query-embedding";
import { anyLexemeTsQuery, lexemeTsQuery, queryLexemes } from "./text-query";
import { alternativesOf, type VocabularyEntry } from "./workspace-vocabulary";

/** How many ids each half of the search (nearest vectors, full-text hits) contributes before fusion. */
export const CANDIDATES_PER_HALF = 50;

/**
 * What to search for: the caller's text, its vector when the embeddings provider answered, and the
 * workspace's vocabulary (acronyms and their names), whose other side is searched too.
 */
export interface HybridQuery {
  text: string;
  vector?: QueryVector;
  vocabulary?: VocabularyEntry[];
}

/**
 * How a searched table is searched by meaning: the query that finds its nearest items, as rows of
 * (id, distance) of the query's model only, and the similarity to the query of a candidate on
 * alias `t` that is not among them (null when it has no vector of this model: vectors of
 * different models are never compared).
 */
export interface VectorSource {
  nearest(query: QueryVector): Prisma.Sql;
  similarity(vector: Prisma.Sql, model: string): Prisma.Sql;
}

/** A table whose items each hold one vector, in their own `embedding` column. */
export function ownColumnVectors(table: HybridSearchSource["table"], where: Prisma.Sql): VectorSource {
  const name = Prisma.raw(`"${table}"`);
  return {
    nearest: (query) => {
      const vector = Prisma.sql`${toVectorLiteral(query.vector)}::vector`;
      return Prisma.sql`SELECT t.id, t.embedding <=> ${vector} AS distance FROM ${name} t
                        WHERE ${where} AND t.embedding_model = ${query.model} AND t.embedding IS NOT NULL
                        ORDER BY t.embedding <=> ${vector} LIMIT ${CANDIDATES_PER_HALF}`;
    },
    similarity: (vector, model) => Prisma.sql`CASE WHEN t.embedding_model = ${model} THEN 1 - (t.embedding <=> ${vector}) END`,
  };
}

/** A table with `id` and a generated `search_document`, searched by meaning and by words. */
export interface HybridSearchSource {
  table: "artifacts" | "memories" | "query_patterns" | "error_learnings";
  /** Conditions every candidate meets, on alias `t`; the workspace condition first. */
  where: Prisma.Sql;
  /** The columns each candidate returns, on alias `t`. */
  columns: Prisma.Sql;
  vectors: VectorSource;
  /**
   * Whether each candidate reports the caller's words it matched (`matchedTerms`, shown by memory
   * recall): reading the query's words back through the parser costs a third of the planning.
   */
  matchedTerms?: boolean;
}

export interface CandidateScores extends SearchCandidate {
  /** The same on every row: the query's own lexemes (the other lexemes searched come from the vocabulary). */
  queryLexemes: string[];
  /** The same on every row: the vocabulary entries the query applies (alternativesOf). */
  vocabularyApplied: string[];
  /** The caller's own words behind matchedLexemes ("enterprises", not the stem "enterpris"), in query order; empty unless the source asks. */
  matchedTerms: string[];
  /** The same on every row: the collection's figures for the query's lexemes. */
  documents: number;
  documentFrequency: Record<string, number>;
}

/** The collection's figures for the query, from any candidate row (all carry the same), and the vocabulary's alternatives. */
export function lexemeStatsOf(candidates: CandidateScores[], vocabulary: VocabularyEntry[] = []): LexemeStats {
  const first = candidates[0];
  const queryLexemes = first?.queryLexemes ?? [];
  return {
    documents: Number(first?.documents ?? 0),
    documentFrequency: first?.documentFrequency ?? {},
    queryLexemes,
    alternatives: alternativesOf(vocabulary, first?.vocabularyApplied ?? [], queryLexemes),
  };
}

/**
 * One query that gathers candidates from the nearest vectors of the current model and from the
 * full-text hits, then reports for each its cosine similarity (null when it has no vector of this
 * model: vectors of different models are never compared), the query lexemes it contains with the
 * best field of each, and how common each query lexeme is in the collection. Without a query
 * vector (provider down) only the full-text half runs.
 */
export function hybridCandidatesSql(source: HybridSearchSource, query: HybridQuery): Prisma.Sql {
  const table = Prisma.raw(`"${source.table}"`);
  const lexemes = Prisma.sql`search_query.lexemes`;
  // Built once in search_query: as an expression over its lexemes it was rebuilt for every row tested.
  const tsQuery = Prisma.sql`search_query.tsquery`;
  const vector = query.vector ? Prisma.sql`${toVectorLiteral(query.vector.vector)}::vector` : undefined;
  // The nearest items come with their distance; only a full-text hit outside them has its
  // similarity computed.
  const nearest = query.vector ? source.vectors.nearest(query.vector) : Prisma.sql`SELECT NULL::text AS id, NULL::float8 AS distance WHERE false`;
  const similarity = vector ? Prisma.sql`coalesce(1 - n.distance, ${source.vectors.similarity(vector, query.vector!.model)})` : Prisma.sql`NULL::float8`;
  const vocabulary = query.vocabulary ?? [];
  // ts_debug is a SQL function the planner inlines: planned only where its answer is shown.
  const queryTerms = source.matchedTerms
    ? Prisma.sql`query_terms AS MATERIALIZED (
      SELECT lower(d.token) AS term, d.lexemes, d.ord
      FROM ts_debug('english', ${query.text}) WITH ORDINALITY
        AS d(alias, description, token, dictionaries, dictionary, lexemes, ord)
      WHERE cardinality(d.lexemes) > 0
    ),`
    : Prisma.empty;
  const matchedTerms = source.matchedTerms
    ? Prisma.sql`ARRAY(SELECT (array_agg(qt.term ORDER BY qt.ord))[1]
            FROM query_terms qt, unnest(qt.lexemes) AS lexeme
            WHERE lexeme = ANY(matched.lexemes)
            GROUP BY lexeme ORDER BY min(qt.ord))`
    : Prisma.sql`ARRAY[]::text[]`;
  return Prisma.sql`
    WITH original AS (SELECT ${queryLexemes(query.text)} AS lexemes),
    vocabulary AS (
      SELECT v.position, string_to_array(v.term, ' ') AS term, string_to_array(v.expansion, ' ') AS expansion, v.cover
      FROM unnest(${vocabulary.map((entry) => entry.term.join(" "))}::text[], ${vocabulary.map((entry) => entry.expansion.join(" "))}::text[],
                  ${vocabulary.map((entry) => entry.cover)}::float8[]) WITH ORDINALITY AS v(term, expansion, cover, position)
    ),
    -- The vocabulary entries one side of which the query holds (all of it, or the entry's share),
    -- and their other side, unless the query holds that too (alternativesOf reads the keys).
    applied AS (
      SELECT s.key, s.other
      FROM original q, vocabulary v,
           LATERAL (VALUES ('t' || v.position, v.term, v.expansion), ('e' || v.position, v.expansion, v.term)) AS s(key, side, other)
      WHERE cardinality(s.side) > 0 AND cardinality(s.other) > 0 AND NOT s.other <@ q.lexemes
        AND (SELECT count(*) FROM unnest(s.side) AS x WHERE x = ANY(q.lexemes)) >= ceil(cardinality(s.side) * v.cover - 1e-9)
    ),
    search_query AS (
      SELECT q.original, q.lexemes, q.applied, ${anyLexemeTsQuery(Prisma.sql`q.lexemes`)} AS tsquery
      FROM (SELECT o.lexemes AS original,
                   o.lexemes || ARRAY(SELECT DISTINCT x FROM applied a, unnest(a.other) AS x WHERE NOT x = ANY(o.lexemes)) AS lexemes,
                   ARRAY(SELECT a.key FROM applied a ORDER BY a.key) AS applied
            FROM original o) q
    ),
${queryTerms}    lexeme_stats AS (
      SELECT (SELECT count(*) FROM ${table} t WHERE ${source.where})::int AS documents,
             coalesce((SELECT json_object_agg(lexeme,
                        (SELECT count(*) FROM ${table} t WHERE ${source.where} AND t.search_document @@ ${lexemeTsQuery(Prisma.sql`lexeme`)}))
                       FROM search_query, unnest(search_query.lexemes) AS lexeme), '{}'::json) AS frequency
    ),
    nearest AS MATERIALIZED (${nearest}),
    -- Materialised and joined from, so the per-row work below runs for at most 100 candidates: the
    -- planner, without fresh statistics (PGlite never autovacuums), otherwise scanned the whole
    -- workspace and tested each row against this list (67 ms instead of a few at 1,000 artifacts).
    candidate_ids(id) AS MATERIALIZED (
      SELECT nearest.id FROM nearest UNION
      (SELECT t.id FROM ${table} t, search_query WHERE ${source.where} AND t.search_document @@ ${tsQuery}
       ORDER BY ts_rank(t.search_document, ${tsQuery}) DESC LIMIT ${CANDIDATES_PER_HALF})
    )
    SELECT ${source.columns}, t.id,
      ${similarity} AS similarity,
      coalesce(matched.lexemes, '{}') AS "matchedLexemes",
      coalesce(matched.weights, '{}') AS "matchedWeights",
      ${matchedTerms} AS "matchedTerms",
      lexeme_stats.documents, lexeme_stats.frequency AS "documentFrequency", search_query.original AS "queryLexemes", search_query.applied AS "vocabularyApplied"
    FROM candidate_ids c
    JOIN ${table} t ON t.id = c.id
    LEFT JOIN nearest n ON n.id = c.id
    CROSS JOIN search_query
    CROSS JOIN lexeme_stats
    CROSS JOIN LATERAL (
      SELECT array_agg(u.lexeme ORDER BY u.lexeme) AS lexemes,
             array_agg((SELECT min(w::text) FROM unnest(u.weights) AS w) ORDER BY u.lexeme) AS weights
      FROM unnest(t.search_document) AS u WHERE u.lexeme = ANY(search_query.lexemes)
    ) matched
    WHERE ${source.where}`;
}
