import type { Db } from "../db/database";
import { toVectorLiteral } from "../embeddings/embeddings-provider";
import { Prisma } from "../generated/prisma/client";
import { hybridCandidates, type CandidateScores, type HybridQuery } from "../search/hybrid-candidates";
import type { QueryVector } from "../search/query-embedding";

/** How many nearest artifacts and how many full-text hits are considered before fusing. */
export const CANDIDATES_PER_SIDE = 50;

/** Vector rows of one artifact at most: its headline, body part 0, and up to 4 body chunks (the migration `artifact_body_chunks`). */
export const VECTORS_PER_ARTIFACT = 6;

export type NearestStrategy = "exact" | "hnsw";

/**
 * Up to this many vectors in a workspace, nearest neighbours are found by an exact scan (always
 * correct, and fast at this size); above it, through the HNSW index.
 */
export const EXACT_SCAN_MAX_VECTORS = 2_000;

export type ArtifactCandidate = CandidateScores;

/**
 * The nearest artifacts of one workspace by one strategy, as rows of (id, distance), each artifact
 * by its nearest vector row. Left to itself the planner picks either plan unreliably, so each
 * strategy leaves it one path:
 * - exact: the ordering is an expression the HNSW index cannot serve, so every vector of the
 *   workspace is compared;
 * - hnsw: the function `artifact_nearest_hnsw` (migration `20261123090000`), whose own settings
 *   steer its plan to the index and its scan to fill the limit.
 */
export function nearestQuery(strategy: NearestStrategy, workspaceId: string, query: QueryVector): Prisma.Sql {
  const vector = toVectorLiteral(query.vector);
  // An artifact has up to VECTORS_PER_ARTIFACT rows: enough nearest rows are read for
  // CANDIDATES_PER_SIDE different artifacts.
  const rows = CANDIDATES_PER_SIDE * VECTORS_PER_ARTIFACT;
  if (strategy === "hnsw") {
    return Prisma.sql`SELECT id, distance FROM artifact_nearest_hnsw(${workspaceId}, ${query.model}, ${vector}::vector, ${rows}::int, ${CANDIDATES_PER_SIDE}::int)`;
  }
  return Prisma.sql`
    SELECT id, min(distance) AS distance FROM (
      SELECT artifact_id AS id, embedding <=> ${vector}::vector AS distance FROM artifact_embeddings
      WHERE workspace_id = ${workspaceId} AND searchable AND model = ${query.model} AND embedding IS NOT NULL
      ORDER BY (embedding <=> ${vector}::vector) + 0 LIMIT ${rows}) AS nearest
    GROUP BY id ORDER BY min(distance), id LIMIT ${CANDIDATES_PER_SIDE}`;
}

/**
 * Whether a statement scans the HNSW index of artifact vectors (a function's plan is not in its
 * caller's EXPLAIN): the index's scan count rises around it. For the tests and the bench, which
 * check that each strategy takes its path.
 */
export async function scansHnswIndex(db: Db, statement: Prisma.Sql): Promise<boolean> {
  // Scans not yet reported are counted in this backend's pending statistics, across transactions
  // until they are flushed: the difference around the statement, in one transaction, is its own.
  return db.$transaction(async (tx) => {
    const scans = async () =>
      (await tx.$queryRaw<[{ scans: number }]>`SELECT pg_stat_get_xact_numscans('artifact_embeddings_embedding_hnsw_idx'::regclass)::int AS scans`)[0].scans;
    const before = await scans();
    await tx.$queryRaw(statement);
    return (await scans()) > before;
  });
}

/**
 * How long a workspace's strategy is reused before its vectors are counted again. Both strategies
 * give correct answers, so a stale choice near the threshold only costs a little speed; counting
 * on every search cost a scan of the workspace's vectors per request.
 */
export const STRATEGY_TTL_MS = 60_000;

export function createArtifactSearchRepository(db: Db, options: { exactScanMaxVectors?: number } = {}) {
  const exactScanMaxVectors = options.exactScanMaxVectors ?? EXACT_SCAN_MAX_VECTORS;
  const strategies = new Map<string, { strategy: NearestStrategy; until: number }>();

  async function chooseStrategy(workspaceId: string, model: string): Promise<NearestStrategy> {
    const key = `${workspaceId}\u0000${model}`;
    const known = strategies.get(key);
    if (known && known.until > Date.now()) return known.strategy;
    // Counting stops at the threshold: whether there are more is all the choice needs.
    const [{ count }] = await db.$queryRaw<[{ count: number }]>`
      SELECT count(*)::int AS count FROM (
        SELECT 1 FROM artifact_embeddings WHERE workspace_id = ${workspaceId} AND searchable AND model = ${model}
        LIMIT ${exactScanMaxVectors + 1}) AS capped`;
    const strategy: NearestStrategy = count <= exactScanMaxVectors ? "exact" : "hnsw";
    if (strategies.size > 10_000) strategies.clear();
    strategies.set(key, { strategy, until: Date.now() + STRATEGY_TTL_MS });
    return strategy;
  }

  /** The artifacts nearest to the query in one workspace, each by its nearest vector, and the strategy used. */
  async function nearest(workspaceId: string, query: QueryVector): Promise<{ ids: string[]; strategy: NearestStrategy }> {
    const strategy = await chooseStrategy(workspaceId, query.model);
    const rows = await db.$queryRaw<Array<{ id: string }>>(nearestQuery(strategy, workspaceId, query));
    return { ids: rows.map((row) => row.id), strategy };
  }

  return {
    /**
     * Candidates among the validated artifacts of one workspace: the nearest vectors of the
     * query's model, and the full-text hits on any of the query's words; each with its
     * similarity (that of its nearest vector row) and the query words it contains.
     */
    async candidates(workspaceId: string, query: HybridQuery): Promise<ArtifactCandidate[]> {
      return hybridCandidates(
        (sql) => db.$queryRaw<ArtifactCandidate[]>(sql),
        {
          table: "artifacts",
          where: Prisma.sql`t.workspace_id = ${workspaceId} AND t.status = 'validated'`,
          columns: Prisma.sql`t.summary`,
          vectors: {
            nearest: async (vector) => nearestQuery(await chooseStrategy(workspaceId, vector.model), workspaceId, vector),
            similarity: (vector, model) => Prisma.sql`(SELECT max(1 - (e.embedding <=> ${vector})) FROM artifact_embeddings e
                                                       WHERE e.artifact_id = t.id AND e.model = ${model})`,
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
