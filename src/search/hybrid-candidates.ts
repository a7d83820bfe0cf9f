import type { ExactDistance } from "../db/vector-distance";
import { Prisma } from "../generated/prisma/client";
import { ATTR_DB_COLLECTION_NAME, ATTR_SEARCH_CANDIDATES, ATTR_SEARCH_HALF, SPAN_SEARCH_TEXT, SPAN_SEARCH_VECTOR } from "../telemetry/conventions";
import { inSpan } from "../telemetry/tracing";
import { toVectorLiteral } from "../embeddings/embeddings-provider";
import { rankCandidates, type LexemeStats, type SearchCandidate } from "./hybrid-fusion";
import type { HybridQuery, QueryVector } from "./hybrid-query";
import { anyLexemeTsQuery, queryLexemes } from "./text-query";
import { FUSION } from "./hybrid-fusion";
import type { WordExpansion } from "./lexical-expansion";
import { alternativesOf, type Alternative, type VocabularyEntry } from "./workspace-vocabulary";

/** How many ids each half of the search (nearest vectors, full-text hits) contributes before fusion. */
export const CANDIDATES_PER_HALF = 50;

/**
 * How many full-text hits one search reads at most before ranking them: every hit while the
 * query's words are held by fewer documents together, the rarest words' first beyond that
 * (docs/search.md, "At scale").
 */
export const TEXT_HITS_READ = 1_000;

/**
 * How a searched table is searched by meaning: the query that finds its nearest items, as rows of
 * (id, distance) of the query's model only, and the similarity to the query of a candidate on
 * alias `t` that is not among them (null when it has no vector of this model: vectors of
 * different models are never compared). The rows may also carry the distance of `known` items
 * (the text half's) that are not among the nearest, where it costs nothing more: the similarity of
 * those is then not computed again.
 */
export interface VectorSource {
  nearest(query: QueryVector, known?: readonly string[]): Prisma.Sql | Promise<Prisma.Sql>;
  similarity(vector: Prisma.Sql, model: string): Prisma.Sql;
}

/** A workspace's own vector index on a table (vector-index.repository.ts), as a search reads it: how many of its lists. */
export interface OwnIndex {
  probes: number;
}

/**
 * The `limit` rows of `scan` (a SELECT with a `distance` column) of least distance. The scan is
 * fenced (OFFSET 0) so that each row's distance is computed once, not again for the ordering
 * (1.8 ms against 2.3 for 5,000 vectors on PostgreSQL, 16 against 27 embedded), and so that no
 * index can serve the ordering: the plan is the exact scan it says.
 */
export function exactScan(scan: Prisma.Sql, limit: number): Prisma.Sql {
  return Prisma.sql`SELECT * FROM (${scan} OFFSET 0) AS scanned ORDER BY scanned.distance LIMIT ${limit}`;
}

/**
 * A table whose items each hold one vector, in their own `embedding` column, searched within one
 * workspace: exactly (by `exactDistance`, the engine's faster way), or through the workspace's own
 * index once it has one (`ownIndex`; migration `search_at_scale`). `scope` is the data source of a
 * pattern or learning search.
 */
export function ownColumnVectors(
  table: HybridSearchSource["table"],
  where: Prisma.Sql,
  own: { workspaceId: string; scope?: string; ownIndex: () => Promise<OwnIndex | undefined>; exactDistance: ExactDistance },
): VectorSource {
  const name = Prisma.raw(`"${table}"`);
  return {
    nearest: async (query) => {
      const index = await own.ownIndex();
      if (index) {
        return Prisma.sql`SELECT id, distance FROM nearest_in_workspace_index(${table}, ${own.workspaceId}, ${own.scope ?? null}::text,
                                 ${toVectorLiteral(query.vector)}::halfvec, ${query.model}, ${CANDIDATES_PER_HALF}::int, ${CANDIDATES_PER_HALF}::int, ${index.probes}::int)`;
      }
      return exactScan(
        Prisma.sql`SELECT t.id, ${own.exactDistance(Prisma.sql`t.embedding`, query.vector)} AS distance FROM ${name} t
                   WHERE ${where} AND t.embedding_model = ${query.model} AND t.embedding IS NOT NULL`,
        CANDIDATES_PER_HALF,
      );
    },
    similarity: (vector, model) => Prisma.sql`CASE WHEN t.embedding_model = ${model} THEN 1 - (t.embedding <=> ${vector}) END`,
  };
}

/** The condition of each table's search_keys index (migration `search_at_scale`). */
const KEYS_INDEXED: Record<HybridSearchSource["table"], Prisma.Sql> = {
  artifacts: Prisma.sql`t.status = 'validated'`,
  memories: Prisma.sql`t.active`,
  query_patterns: Prisma.sql`true`,
  error_learnings: Prisma.sql`true`,
};

/** A table with `id` and a generated `search_document`, searched by meaning and by words. */
export interface HybridSearchSource {
  table: "artifacts" | "memories" | "query_patterns" | "error_learnings";
  /** Conditions every candidate meets, on alias `t`; the workspace condition first. */
  where: Prisma.Sql;
  /**
   * A caller's filter (src/search/artifact-filters.ts), on alias `t`, also part of `where`: applied
   * as the full-text hits are read, so that a word's quota counts matching hits. Undefined for a
   * search without one, which runs the statements it always has.
   */
  filter?: Prisma.Sql;
  /**
   * The collection the candidates are ranked in (search_term_counts: its documents and how many
   * hold each word), and the owner of its full-text keys (search_keys: the workspace, or the data
   * source of patterns and learnings), as the migration `search_at_scale` defines them.
   */
  collection: { workspaceId: string; name: string; keyOwner: "workspace_id" | "data_source_id"; keyOwnerId: string };
  /**
   * The fields each candidate returns, by name: SQL expressions on alias `t` (fixed text, never a
   * caller's value). The vector half returns them only for the candidates the text half did not.
   */
  columns: Readonly<Record<string, string>>;
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
  /** The same on every row: "lexeme related kind" for each WordNet word searched for a query lexeme (stemmed as documents are). */
  lexicalExpansions: string[];
  /** The caller's own words behind matchedLexemes ("enterprises", not the stem "enterpris"), in query order; empty unless the source asks. */
  matchedTerms: string[];
  /** The same on every row: the collection's figures for the query's lexemes. */
  documents: number;
  documentFrequency: Record<string, number>;
}

/** The collection's figures for the query, from any candidate row (all carry the same), and the vocabulary's alternatives. */
export function lexemeStatsOf(candidates: CandidateScores[], vocabulary: VocabularyEntry[] = [], expansions: WordExpansion[] = []): LexemeStats {
  const first = candidates[0];
  const queryLexemes = first?.queryLexemes ?? [];
  const alternatives = alternativesOf(vocabulary, first?.vocabularyApplied ?? [], queryLexemes);
  for (const pair of first?.lexicalExpansions ?? []) {
    const [lexeme, related, kind] = pair.split(" ") as [string, string, string];
    const alternative: Alternative = { lexemes: [related], needed: 1, weight: kind === "derived" ? FUSION.derivedWeight : FUSION.expansionWeight };
    alternatives.set(lexeme, [...(alternatives.get(lexeme) ?? []), alternative]);
  }
  return {
    documents: Number(first?.documents ?? 0),
    documentFrequency: first?.documentFrequency ?? {},
    queryLexemes,
    alternatives,
    dictionaryWord: expansions.some((expansion) => expansion.related.length > 0),
  };
}

/** The candidates of a search ranked by the one scoring, with the query's vocabulary, cut to `limit`. */
export function rankFound<C extends CandidateScores>(candidates: C[], query: HybridQuery, limit: number): Array<C & { score: number }> {
  return rankCandidates(candidates, lexemeStatsOf(candidates, query.vocabulary, query.expansions), limit);
}

/**
 * Which half of a search one statement runs (see hybridCandidates). The vector half reads the
 * collection's figures itself (`figures`) when the text half returned no row to carry them: with a
 * filter, no matching item may hold the words read, while a nearest one holds another query word.
 */
type Half =
  | { kind: "text" }
  | {
      kind: "vector";
      vector: QueryVector;
      nearest: Prisma.Sql;
      known: string[];
      figures?: boolean;
      /** WordNet's words for the query's, as the text half stemmed them: matched besides the query's own lexemes. */
      related: string[];
    };

/**
 * The collection's figures for the query (search_term_counts: its documents, and how many hold
 * each of the query's lexemes), as the CTEs `counts` and `lexeme_stats`. They are kept as rows
 * change: reading them costs the same at 100 documents as at 100,000. The counts are looked up
 * word by word (LATERAL … LIMIT 1 keeps the planner from reading the collection's every count
 * first, as it did without statistics).
 */
function collectionFigures(source: HybridSearchSource): Prisma.Sql {
  const { workspaceId, name } = source.collection;
  return Prisma.sql`counts AS MATERIALIZED (
      SELECT q.lexeme, c.documents FROM search_query, unnest(ARRAY['']::text[] || search_query.lexemes) AS q(lexeme),
        LATERAL (SELECT c.documents FROM search_term_counts c
                 WHERE c.workspace_id = ${workspaceId} AND c.collection = ${name} AND c.lexeme = q.lexeme LIMIT 1) AS c
    ),
    lexeme_stats AS (
      SELECT coalesce((SELECT c.documents FROM counts c WHERE c.lexeme = ''), 0) AS documents,
             coalesce((SELECT json_object_agg(q.lexeme, coalesce(c.documents, 0))
                       FROM search_query, unnest(search_query.lexemes) AS q(lexeme) LEFT JOIN counts c ON c.lexeme = q.lexeme), '{}'::json) AS frequency
    )`;
}

/**
 * The figures of a statement (lexemeStatsOf), read from collectionFigures and search_query: on its
 * first row only, the same for every row (withFigures gives them to the others). Written on each
 * of 50 rows they were up to a third of the text half's answer, which the embedded engine's driver
 * decodes and parses in the request's thread.
 */
const FIGURES = Prisma.sql`,
      CASE WHEN row_number() OVER () = 1 THEN (SELECT documents FROM lexeme_stats) END AS documents,
      CASE WHEN row_number() OVER () = 1 THEN (SELECT frequency FROM lexeme_stats) END AS "documentFrequency",
      CASE WHEN row_number() OVER () = 1 THEN search_query.original END AS "queryLexemes",
      CASE WHEN row_number() OVER () = 1 THEN search_query.applied END AS "vocabularyApplied",
      CASE WHEN row_number() OVER () = 1 THEN search_query.expanded END AS "lexicalExpansions"`;

type Figures = Pick<CandidateScores, "documents" | "documentFrequency" | "queryLexemes" | "vocabularyApplied" | "lexicalExpansions">;

/** The figures a statement wrote on its first row, if it wrote any. */
function figuresOf(rows: CandidateScores[]): Figures | undefined {
  const first = rows.find((row) => row.documentFrequency !== null && row.documentFrequency !== undefined);
  return (
    first && {
      documents: first.documents,
      documentFrequency: first.documentFrequency,
      queryLexemes: first.queryLexemes,
      vocabularyApplied: first.vocabularyApplied,
      lexicalExpansions: first.lexicalExpansions,
    }
  );
}

/** Every row with the figures. */
const withFigures = <C extends CandidateScores>(rows: C[], figures: Figures | undefined): C[] => (figures ? rows.map((row) => ({ ...row, ...figures })) : rows);

/** A source's fields as the select list of a half: the vector half leaves them out (NULL) for the candidates the text half returned. */
function selectedColumns(source: HybridSearchSource, half: Half): Prisma.Sql {
  const list = Object.entries(source.columns).map(([name, expression]) =>
    half.kind === "text" ? `${expression} AS "${name}"` : `CASE WHEN c.known THEN NULL ELSE ${expression} END AS "${name}"`,
  );
  return Prisma.raw(list.join(", "));
}

/**
 * The condition of one word's full-text hit (the lateral's `q.lexeme`) on alias `t`: the
 * collection's keys hold it, read through their index (search_keys). The workspace is named for
 * Citus, which routes the statement to the workspace's node only when every reference to a
 * distributed table names it; named with the "C" collation, whose equality is the same for these
 * ids, so that no index on workspace_id (of the default collation) can serve it: with the workspace
 * indexable, a planner without statistics walked the workspace's rows by its btree and computed
 * every row's keys (363 ms instead of 27 for the text half at 1,000 realistic artifacts, embedded;
 * tests/search/search-statement-reads.test.ts). Citus still prunes by it (tests/citus/router-plans).
 */
function wordHit(source: HybridSearchSource): Prisma.Sql {
  const { workspaceId, keyOwner, keyOwnerId } = source.collection;
  return Prisma.sql`${KEYS_INDEXED[source.table]} AND t.workspace_id = ${workspaceId} COLLATE "C"
          AND search_keys(t.${Prisma.raw(keyOwner)}, t.search_document) && ARRAY[${keyOwnerId} || ' ' || q.lexeme]`;
}

/**
 * One word's full-text hits that match a caller's filter, read from the collection's keys as the
 * unfiltered hits are, the filter holding on each hit as it is read (LIMIT counts matching hits).
 * Fenced (OFFSET 0), so that the keys' index stays the one read: the filter's columns have indexes
 * of their own (created_at), which would have the planner walk all the workspace's rows instead.
 */
function filteredKeyHits(source: HybridSearchSource, filter: Prisma.Sql, tsQuery: Prisma.Sql): Prisma.Sql {
  const table = Prisma.raw(`"${source.table}"`);
  return Prisma.sql`SELECT t.id, ts_rank(t.search_document, ${tsQuery}) AS rank FROM (
          SELECT t.* FROM ${table} t
          WHERE ${wordHit(source)}
          OFFSET 0) AS t
        WHERE ${filter}`;
}

/**
 * One statement of a search.
 * - text: the best full-text hits on any of the query's lexemes (its own and the vocabulary's),
 *   each with the lexemes it contains and the best field of each, and how common each lexeme is in
 *   the collection;
 * - vector: the nearest items of the query's model, the `known` items (the text half's) too, each
 *   with its cosine similarity (null when it has no vector of this model: vectors of different
 *   models are never compared), and for the items the text half did not return, the lexemes they
 *   contain.
 */
function candidatesSql(source: HybridSearchSource, query: { text: string; vocabulary: VocabularyEntry[]; expansions: WordExpansion[] }, half: Half): Prisma.Sql {
  const table = Prisma.raw(`"${source.table}"`);
  // Built once in search_query: as an expression over its lexemes it was rebuilt for every row tested.
  const tsQuery = Prisma.sql`search_query.tsquery`;
  const vocabulary = query.vocabulary;
  const expansions = query.expansions.flatMap((expansion) => expansion.related.map((related, i) => ({ word: expansion.word, related, kind: expansion.kinds[i] ?? "synonym" })));
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
  // The candidates are materialised and joined from, so the per-row work below runs for at most
  // 100 of them: the planner, without fresh statistics (PGlite never autovacuums), otherwise
  // scanned the whole workspace and tested each row against the list (67 ms instead of a few at
  // 1,000 artifacts). The nearest rows bring their distance; only a known row outside them has its
  // similarity computed.
  let candidates: Prisma.Sql;
  let similarity = Prisma.sql`NULL::float8`;
  let figures = Prisma.empty;
  if (half.kind === "text") {
    // The collection's figures are kept as rows change (collectionFigures). The full-text hits
    // are read rarest word first, each word's postings up to what TEXT_HITS_READ leaves (quota),
    // and only then ranked: with any-word matching, a common word of a large workspace otherwise
    // had every holder ranked.
    // Through the collection's own keys (wordHit), never another workspace's postings. The keys
    // hold the owner: the hits are the collection's rows, and the final select applies `where`
    // again. With a filter, each word's quota counts
    // matching hits (filteredKeyHits); the quotas are still the collection's.
    candidates = Prisma.sql`${collectionFigures(source)},
    quotas AS (
      SELECT c.lexeme, greatest(0, ${TEXT_HITS_READ} - coalesce(sum(c.documents) OVER (
               ORDER BY c.documents, c.lexeme ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0))::int AS quota
      FROM counts c WHERE c.lexeme <> '' AND c.documents > 0
    ),
    hits AS MATERIALIZED (
      SELECT hit.id, max(hit.rank) AS rank FROM quotas q CROSS JOIN search_query CROSS JOIN LATERAL (
        ${source.filter ? filteredKeyHits(source, source.filter, tsQuery) : Prisma.sql`SELECT t.id, ts_rank(t.search_document, ${tsQuery}) AS rank FROM ${table} t
        WHERE ${wordHit(source)}`}
        LIMIT q.quota) AS hit
      GROUP BY hit.id
    ),
    nearest(id, distance) AS (SELECT NULL::text, NULL::float8 WHERE false),
    candidate_ids(id, known) AS MATERIALIZED (
      SELECT hits.id, false FROM hits ORDER BY hits.rank DESC, hits.id LIMIT ${CANDIDATES_PER_HALF}
    ),
    -- search_query holds WordNet's words here: none to match besides.
    related(lexemes) AS (SELECT ARRAY[]::text[])`;
    figures = FIGURES;
  } else {
    const vector = Prisma.sql`${toVectorLiteral(half.vector.vector)}::halfvec`;
    if (half.figures) figures = FIGURES;
    candidates = Prisma.sql`${half.figures ? Prisma.sql`${collectionFigures(source)},
    ` : Prisma.empty}nearest AS MATERIALIZED (${half.nearest}),
    candidate_ids(id, known) AS MATERIALIZED (
      SELECT k.id, true FROM unnest(${half.known}::text[]) AS k(id)
      UNION ALL
      SELECT nearest.id, false FROM nearest WHERE NOT nearest.id = ANY(${half.known}::text[])
    )`;
    similarity = Prisma.sql`coalesce(1 - n.distance, ${source.vectors.similarity(vector, half.vector.model)})`;
    candidates = Prisma.sql`${candidates}, related(lexemes) AS (SELECT ${half.related}::text[])`;
  }
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
    -- WordNet's words for the query's words (lexical-expansion.ts), stemmed here as documents are:
    -- a related word that stems to a query lexeme, or to more than one lexeme, adds nothing.
    expanded AS (
      SELECT DISTINCT ON (w.lexemes[1], r.lexemes[1]) w.lexemes[1] AS lexeme, r.lexemes[1] AS related, e.kind
      FROM original q, unnest(${expansions.map((e) => e.word)}::text[], ${expansions.map((e) => e.related)}::text[], ${expansions.map((e) => e.kind)}::text[]) AS e(word, related, kind),
           LATERAL (SELECT tsvector_to_array(to_tsvector('english', e.word)) AS lexemes) AS w,
           LATERAL (SELECT tsvector_to_array(to_tsvector('english', e.related)) AS lexemes) AS r
      WHERE cardinality(w.lexemes) = 1 AND cardinality(r.lexemes) = 1 AND w.lexemes[1] = ANY(q.lexemes) AND NOT r.lexemes[1] = ANY(q.lexemes)
      ORDER BY w.lexemes[1], r.lexemes[1], e.kind
    ),
    search_query AS (
      SELECT q.original, q.lexemes, q.applied, q.expanded, ${anyLexemeTsQuery(Prisma.sql`q.lexemes`)} AS tsquery
      FROM (SELECT o.lexemes AS original,
                   o.lexemes || ARRAY(SELECT DISTINCT x FROM (SELECT x FROM applied a, unnest(a.other) AS x UNION SELECT e.related FROM expanded e) AS extra(x)
                                      WHERE NOT x = ANY(o.lexemes)) AS lexemes,
                   ARRAY(SELECT a.key FROM applied a ORDER BY a.key) AS applied,
                   ARRAY(SELECT e.lexeme || ' ' || e.related || ' ' || e.kind FROM expanded e ORDER BY 1) AS expanded
            FROM original o) q
    ),
    ${queryTerms}${candidates}
    SELECT ${selectedColumns(source, half)}, t.id,
      ${similarity} AS similarity,
      coalesce(matched.lexemes, '{}') AS "matchedLexemes",
      coalesce(matched.weights, '{}') AS "matchedWeights",
      ${matchedTerms} AS "matchedTerms"${figures}
    FROM candidate_ids c
    -- Each candidate by its primary key, fenced: \`where\` outside the fence, so that no index on
    -- its columns (status, created_at) looks as cheap to a planner without statistics; it walked
    -- every validated row of the workspace once per candidate.
    CROSS JOIN LATERAL (SELECT t.* FROM ${table} t WHERE t.workspace_id = ${source.collection.workspaceId} AND t.id = c.id OFFSET 0) AS t
    LEFT JOIN nearest n ON n.id = c.id
    CROSS JOIN search_query
    -- The document's lexemes that are the query's (or WordNet's), with their weights: the document
    -- less what it holds besides them (ts_delete twice, binary searches in the sorted document),
    -- then unnested. Unnesting all of a realistic document's lexemes (about 125) to compare each
    -- took about 0.1 ms a candidate on the embedded engine, some 10 ms a search.
    CROSS JOIN LATERAL (
      SELECT array_agg(u.lexeme ORDER BY u.lexeme) AS lexemes,
             array_agg((SELECT min(w::text) FROM unnest(u.weights) AS w) ORDER BY u.lexeme) AS weights
      FROM related, unnest(ts_delete(t.search_document, tsvector_to_array(ts_delete(t.search_document, search_query.lexemes || related.lexemes)))) AS u
      WHERE NOT c.known
    ) matched
    WHERE ${source.where}`;
}

/**
 * The candidates of one search, from two statements: the text half starts at once, while the
 * query's vector is still being made, and the vector half follows with the nearest items and the
 * similarity of every candidate. The text half's candidates keep the lexemes it found; every row
 * carries the collection's figures (lexemeStatsOf). Without a vector (provider down) only the text
 * half runs.
 */
export async function hybridCandidates<C extends CandidateScores>(
  run: (sql: Prisma.Sql) => Promise<C[]>,
  source: HybridSearchSource,
  query: HybridQuery,
): Promise<C[]> {
  const words = { text: query.text, vocabulary: query.vocabulary ?? [], expansions: query.expansions ?? [] };
  // Each statement in a span of its own, so a trace shows the text half overlapping the query's embedding.
  const traced = (half: Half, statement = words) =>
    inSpan(half.kind === "text" ? SPAN_SEARCH_TEXT : SPAN_SEARCH_VECTOR, { attributes: { [ATTR_DB_COLLECTION_NAME]: source.table, [ATTR_SEARCH_HALF]: half.kind } }, async (span) => {
      const rows = await run(candidatesSql(source, statement, half));
      span.setAttribute(ATTR_SEARCH_CANDIDATES, rows.length);
      return rows;
    });
  const byText = traced({ kind: "text" });
  // Observed now, awaited below: a failure while the vector is awaited must not count as unhandled.
  byText.catch(() => undefined);
  const vector = await query.vector;
  if (!vector) {
    const rows = await byText;
    return withFigures(rows, figuresOf(rows));
  }
  const textRows = await byText;
  const known = new Map(textRows.map((row) => [row.id, row]));
  const nearest = await source.vectors.nearest(vector, [...known.keys()]);
  // The text statement has stemmed WordNet's words already: the vector statement takes its
  // lexemes as they are instead of stemming them again; unless it reads the collection's figures
  // itself (a filter no text hit matched), when it stems them as the text half does.
  const textFigures = figuresOf(textRows);
  const related = [...new Set((textFigures?.lexicalExpansions ?? []).map((pair) => pair.split(" ")[1]!))];
  const readsFigures = source.filter !== undefined && textRows.length === 0;
  const vectorRows = await traced({ kind: "vector", vector, nearest, known: [...known.keys()], figures: readsFigures, related }, readsFigures ? words : { ...words, expansions: [] });
  const figures = readsFigures ? figuresOf(vectorRows) : textFigures;
  // A candidate the text half returned keeps its row (the vector half's has no fields for it), with its similarity.
  return withFigures(
    vectorRows.map((row) => {
      const found = known.get(row.id);
      return found ? { ...found, similarity: row.similarity } : row;
    }),
    figures,
  );
}
