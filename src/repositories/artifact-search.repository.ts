import type { Db } from "../db/database";
import type { SqlExecutor } from "../db/migrations";
import { toVectorLiteral } from "../embeddings/embeddings-provider";
import { Prisma } from "../generated/prisma/client";
import { statementNamedByText, type NamedStatementParam } from "../db/named-statement";
import type { ExactDistance } from "../db/vector-distance";
import { artifactFilterArguments, artifactFilterCondition, isFiltered, type ArtifactFilters } from "../search/artifact-filters";
import { exactScan, hybridCandidates, type CandidateScores, type OwnIndex } from "../search/hybrid-candidates";
import type { HybridQuery, QueryVector } from "../search/hybrid-query";
import type { ArtifactSummaryRecord } from "./artifact.repository";
import type { ArtifactVectorsInProcess } from "./artifact-vectors-in-process";
import { artifactSummaryColumns } from "./artifact-detail.repository";
import { createVectorIndexRepository, VECTORS_PER_ARTIFACT, workspaceIndexName, type VectorIndexRepository } from "./vector-index.repository";

/** How many nearest artifacts and how many full-text hits are considered before fusing. */
export const CANDIDATES_PER_SIDE = 50;

/**
 * The most artifacts a filter may match for a search through a workspace's own index to compare
 * their vectors exactly instead. Past it, the index is read with the filter (its iterative scan
 * passes over non-matching rows, looking each up, until enough match). On a 50,000-artifact
 * workspace on PostgreSQL the two met between 2,000 matching artifacts (walk 45 ms, exact 29) and
 * 4,500 (36 against 94); at 0.1% the walk took 0.5–0.8 s (docs/search.md, "Filters").
 */
export const EXACT_MATCHING_MAX = 2_000;

/**
 * How the nearest artifacts are found: `exact` compares every vector of the workspace (that
 * matches the filter, if any), `index` reads the workspace's own index, `matching` compares
 * exactly the vectors of the few artifacts a filter matches in a workspace that has an index.
 */
export type NearestStrategy = "exact" | "index" | "matching";

/** A candidate with the fields a search answers with: the statements that find it read them, so no third one does. */
export type ArtifactCandidate = CandidateScores & ArtifactSummaryRecord;

/** The answer's fields on alias `t` (a candidate's id is selected with every candidate). */
const SUMMARY_COLUMNS = artifactSummaryColumns();

/**
 * The nearest artifacts of one workspace, as rows of (id, distance), each artifact by its nearest
 * vector row, by one of two strategies:
 * - exact: every vector of the workspace compared, by `exactDistance` (the engine's faster way);
 *   what a workspace gets until it has an index of its own;
 * - index (`own` given): the workspace's own index, through `nearest_in_workspace_index` (migration
 *   `search_at_scale`), reading `probes` of its lists and more until the limit is filled.
 */
export function nearestQuery(workspaceId: string, query: QueryVector, how: { exactDistance: ExactDistance; own?: OwnIndex }): Prisma.Sql {
  // An artifact has up to VECTORS_PER_ARTIFACT rows: enough nearest rows are read for
  // CANDIDATES_PER_SIDE different artifacts.
  const rows = CANDIDATES_PER_SIDE * VECTORS_PER_ARTIFACT;
  if (how.own) {
    return Prisma.sql`SELECT id, distance FROM nearest_in_workspace_index('artifact_embeddings', ${workspaceId}, NULL::text,
                             ${toVectorLiteral(query.vector)}::halfvec, ${query.model}, ${rows}::int, ${CANDIDATES_PER_SIDE}::int, ${how.own.probes}::int)`;
  }
  return Prisma.sql`
    SELECT id, min(distance) AS distance FROM (
      ${exactScan(Prisma.sql`SELECT artifact_id AS id, ${how.exactDistance(Prisma.sql`embedding`, query.vector)} AS distance FROM artifact_embeddings
                   WHERE workspace_id = ${workspaceId} AND searchable AND model = ${query.model} AND embedding IS NOT NULL`, rows)}) AS nearest
    GROUP BY id ORDER BY min(distance), id LIMIT ${CANDIDATES_PER_SIDE}`;
}

/** Nearest artifacts found in the process (ArtifactVectorsInProcess), as the rows of (id, distance) a statement would return. */
function heldNearest(rows: Array<{ id: string; distance: number }>): Prisma.Sql {
  return Prisma.sql`SELECT n.id, n.distance FROM unnest(${rows.map((row) => row.id)}::text[], ${rows.map((row) => row.distance)}::float8[]) AS n(id, distance)`;
}

/**
 * The nearest artifacts among those matching a filter (`filters`, not empty), by one of three
 * strategies (NearestStrategy): with neither `own` nor `matching`, every vector of the workspace
 * whose artifact matches; with `matching` (the ids of every matching artifact), their vectors;
 * with `own`, the workspace's own index, the filter holding as it is read
 * (`nearest_matching_in_workspace_index`, migration `filtered_search`).
 */
export function filteredNearestQuery(
  workspaceId: string,
  query: QueryVector,
  how: { exactDistance: ExactDistance; filters: ArtifactFilters; own?: OwnIndex; matching?: string[] },
): Prisma.Sql {
  const rows = CANDIDATES_PER_SIDE * VECTORS_PER_ARTIFACT;
  if (how.matching === undefined && how.own) {
    return Prisma.sql`SELECT id, distance FROM nearest_matching_in_workspace_index(${workspaceId}, ${toVectorLiteral(query.vector)}::halfvec, ${query.model},
                             ${rows}::int, ${CANDIDATES_PER_SIDE}::int, ${how.own.probes}::int, ${artifactFilterArguments(how.filters)})`;
  }
  const distance = how.exactDistance(Prisma.sql`e.embedding`, query.vector);
  const scan =
    how.matching === undefined
      ? Prisma.sql`SELECT e.artifact_id AS id, ${distance} AS distance FROM artifact_embeddings e
                   JOIN artifacts t ON t.workspace_id = e.workspace_id AND t.id = e.artifact_id
                   WHERE e.workspace_id = ${workspaceId} AND e.searchable AND e.model = ${query.model} AND e.embedding IS NOT NULL
                     AND t.status = 'validated' AND ${artifactFilterCondition(how.filters)}`
      : Prisma.sql`SELECT e.artifact_id AS id, ${distance} AS distance FROM artifact_embeddings e
                   WHERE e.workspace_id = ${workspaceId} AND e.artifact_id = ANY(${how.matching}::text[])
                     AND e.searchable AND e.model = ${query.model} AND e.embedding IS NOT NULL`;
  return Prisma.sql`
    SELECT id, min(distance) AS distance FROM (${exactScan(scan, rows)}) AS nearest
    GROUP BY id ORDER BY min(distance), id LIMIT ${CANDIDATES_PER_SIDE}`;
}

/**
 * Whether a statement scans a workspace's own index of artifact vectors (a function's plan is
 * not in its caller's EXPLAIN): the index's scan count rises around it. For the tests and the
 * bench, which check that each strategy takes its path.
 */
export async function scansOwnIndex(db: Db, workspaceId: string, statement: Prisma.Sql): Promise<boolean> {
  const index = workspaceIndexName(workspaceId, "artifact_embeddings");
  // Scans not yet reported are counted in this backend's pending statistics, across transactions
  // until they are flushed: the difference around the statement, in one transaction, is its own.
  return db.$transaction(async (tx) => {
    const scans = async () =>
      (await tx.$queryRaw<[{ scans: number | null }]>`SELECT pg_stat_get_xact_numscans(to_regclass(${`"${index}"`}))::int AS scans`)[0].scans ?? 0;
    const before = await scans();
    await tx.$queryRaw(statement);
    return (await scans()) > before;
  });
}

export function createArtifactSearchRepository(
  db: Db,
  vectorIndexes: VectorIndexRepository = createVectorIndexRepository(db),
  {
    exactMatchingMax = EXACT_MATCHING_MAX,
    driver,
    named = () => false,
    inProcess,
  }: {
    exactMatchingMax?: number;
    /**
     * The database's own driver, which runs a search's two statements in place of the Prisma
     * client: the rows come back as the driver reads them (the same types), without the client's
     * conversion of each field: 2-4 ms less a search (docs/performance.md, "What each change bought").
     */
    driver?: SqlExecutor;
    /**
     * Whether the driver runs a search's two statements as named statements (prepared once per
     * connection, by their text: statementNamedByText), asked at each search: planning them was
     * 4-5 ms of each search on the embedded engine and 3-5 ms on PostgreSQL, and the plan either
     * keeps reads the same rows (tests/search/search-statement-reads.test.ts). Not on Citus, whose
     * coordinator plans a statement for the shards it reaches.
     */
    named?: () => boolean;
    /**
     * The workspaces' vectors held in the process (the embedded engine): an unfiltered search
     * compares them there instead of by the exact scan's statement, whose answer it gives, or by
     * the workspace's own index.
     */
    inProcess?: ArtifactVectorsInProcess;
  } = {},
) {
  const candidateRows = driver
    ? (sql: Prisma.Sql) =>
        named()
          ? driver.queryNamed<ArtifactCandidate>(statementNamedByText("wsi_search", sql.text), sql.values as NamedStatementParam[])
          : driver.query<ArtifactCandidate>(sql.text, sql.values)
    : (sql: Prisma.Sql) => db.$queryRaw<ArtifactCandidate[]>(sql);
  /** The workspace's own index of artifact vectors, if it has one yet. */
  async function ownIndex(workspaceId: string) {
    return (await vectorIndexes.ownIndexes(workspaceId)).get("artifact_embeddings");
  }

  /**
   * For a data source filter, a condition the workspace's full-text keys can answer: an artifact's
   * data sources are words of its full-text document (weight D), so every artifact citing the
   * name holds the keys of the name's words, and the keys' index (search_keys) finds the few that
   * may cite it instead of every artifact of the workspace being read. The filter itself still
   * decides. Empty for no filter, or a name without a word the English configuration keeps ("The").
   */
  async function citingKeys(workspaceId: string, dataSource: string | undefined): Promise<Prisma.Sql> {
    if (dataSource === undefined) return Prisma.empty;
    const [{ keys }] = await db.$queryRaw<[{ keys: string[] }]>`
      SELECT ARRAY(SELECT ${workspaceId} || ' ' || lexeme FROM unnest(tsvector_to_array(to_tsvector('english', ${dataSource}))) AS lexeme) AS keys`;
    return keys.length > 0 ? Prisma.sql`AND search_keys(t.workspace_id, t.search_document) @> ${keys}::text[]` : Prisma.empty;
  }

  /**
   * The statement that finds the nearest artifacts, and its strategy. Without a filter, the held
   * vectors' answer if the workspace's are held, else the one it always was. With one, a
   * workspace without an index of its own compares the vectors of the matching artifacts; one
   * with an index first reads which artifacts match, up to
   * `exactMatchingMax` (EXACT_MATCHING_MAX): an index walk that must pass over most rows costs more
   * than comparing the few that match (docs/search.md, "Filters").
   */
  async function nearestPlan(
    workspaceId: string,
    query: QueryVector,
    filters?: ArtifactFilters,
    known: readonly string[] = [],
  ): Promise<{ sql: Prisma.Sql; strategy: NearestStrategy }> {
    const exactDistance = vectorIndexes.exactDistance;
    if (!isFiltered(filters)) {
      // Held vectors give the exact answer, cheaper than the own index's approximate one.
      const held = await inProcess?.nearest(workspaceId, query, CANDIDATES_PER_SIDE, known);
      if (held) return { sql: heldNearest(held), strategy: "exact" };
      const own = await ownIndex(workspaceId);
      return { sql: nearestQuery(workspaceId, query, { exactDistance, own }), strategy: own ? "index" : "exact" };
    }
    const own = await ownIndex(workspaceId);
    if (!own) return { sql: filteredNearestQuery(workspaceId, query, { exactDistance, filters }), strategy: "exact" };
    const matching = await db.$queryRaw<Array<{ id: string }>>`
      SELECT t.id FROM artifacts t WHERE t.workspace_id = ${workspaceId} AND t.status = 'validated' AND ${artifactFilterCondition(filters)}
        ${await citingKeys(workspaceId, filters.dataSource)}
      LIMIT ${exactMatchingMax + 1}`;
    if (matching.length <= exactMatchingMax) {
      return { sql: filteredNearestQuery(workspaceId, query, { exactDistance, filters, matching: matching.map((row) => row.id) }), strategy: "matching" };
    }
    return { sql: filteredNearestQuery(workspaceId, query, { exactDistance, filters, own }), strategy: "index" };
  }

  /** The artifacts nearest to the query in one workspace (among those matching `filters`), each by its nearest vector, and the strategy used. */
  async function nearest(workspaceId: string, query: QueryVector, filters?: ArtifactFilters): Promise<{ ids: string[]; strategy: NearestStrategy }> {
    const { sql, strategy } = await nearestPlan(workspaceId, query, filters);
    const rows = await db.$queryRaw<Array<{ id: string }>>(sql);
    return { ids: rows.map((row) => row.id), strategy };
  }

  return {
    /**
     * Candidates among the validated artifacts of one workspace (those matching `filters`, if
     * any): the nearest vectors of the query's model, and the full-text hits on any of the
     * query's words; each with its similarity (that of its nearest vector row) and the query
     * words it contains. A filter holds inside both statements, before anything is ranked.
     */
    async candidates(workspaceId: string, query: HybridQuery, filters?: ArtifactFilters): Promise<ArtifactCandidate[]> {
      const filter = isFiltered(filters) ? artifactFilterCondition(filters) : undefined;
      const validated = Prisma.sql`t.workspace_id = ${workspaceId} AND t.status = 'validated'`;
      return hybridCandidates(
        candidateRows,
        {
          table: "artifacts",
          where: filter ? Prisma.sql`${validated} AND ${filter}` : validated,
          filter,
          collection: { workspaceId, name: "artifacts", keyOwner: "workspace_id", keyOwnerId: workspaceId },
          columns: SUMMARY_COLUMNS,
          vectors: {
            nearest: async (vector, known) => (await nearestPlan(workspaceId, vector, filters, known)).sql,
            similarity: (vector, model) => Prisma.sql`(SELECT max(1 - (e.embedding <=> ${vector})) FROM artifact_embeddings e
                                                       WHERE e.workspace_id = ${workspaceId} AND e.artifact_id = t.id AND e.model = ${model})`,
          },
        },
        query,
      );
    },

    /** The nearest-neighbour half alone, for measuring it. */
    nearest,
  };
}

export type ArtifactSearchRepository = ReturnType<typeof createArtifactSearchRepository>;
