import type { Db, DbTx } from "../db/database";
import { toVectorLiteral } from "../embeddings/embeddings-provider";
import { Prisma } from "../generated/prisma/client";
import { hybridCandidatesSql, type CandidateScores, type HybridQuery } from "../search/hybrid-candidates";
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
 * The nearest-neighbour query of one strategy. Left to itself the planner picks either plan
 * unreliably: a btree scan with an exact sort even at tens of thousands of vectors, or the HNSW
 * index without iterative scan, which returns fewer rows than asked for once the workspace filter
 * drops some (20 of 100 was measured). So each strategy leaves it one path:
 * - exact: the ordering is an expression the HNSW index cannot serve, so every vector of the
 *   workspace is compared;
 * - hnsw: the workspace condition is one the btree cannot serve, and `useNearestStrategy` turns
 *   sequential scans off and iterative index scans on.
 */
export function nearestQuery(strategy: NearestStrategy, workspaceId: string, query: QueryVector): Prisma.Sql {
  const vector = toVectorLiteral(query.vector);
  const [workspace, order] =
    strategy === "hnsw"
      ? [Prisma.sql`(workspace_id = ${workspaceId}) IS TRUE`, Prisma.sql`embedding <=> ${vector}::vector`]
      : [Prisma.sql`workspace_id = ${workspaceId}`, Prisma.sql`(embedding <=> ${vector}::vector) + 0`];
  // An artifact has up to VECTORS_PER_ARTIFACT rows: enough nearest rows are read for
  // CANDIDATES_PER_SIDE different artifacts, each ranked by its nearest row.
  return Prisma.sql`
    SELECT id FROM (
      SELECT artifact_id AS id, embedding <=> ${vector}::vector AS distance FROM artifact_embeddings
      WHERE ${workspace} AND searchable AND model = ${query.model} AND embedding IS NOT NULL
      ORDER BY ${order} LIMIT ${CANDIDATES_PER_SIDE * VECTORS_PER_ARTIFACT}) AS nearest
    GROUP BY id ORDER BY min(distance), id LIMIT ${CANDIDATES_PER_SIDE}`;
}

/** Session settings of a strategy, for the current transaction only. */
export async function useNearestStrategy(tx: DbTx, strategy: NearestStrategy): Promise<void> {
  if (strategy === "exact") return;
  // One statement, as each is a round trip: sequential scans off; pgvector 0.8's iterative scan,
  // which keeps walking the graph until the workspace filter has filled the limit; and a candidate
  // list at least as long as the rows asked for (the default, 40, is not).
  await tx.$queryRaw`SELECT set_config('enable_seqscan', 'off', true), set_config('hnsw.iterative_scan', 'relaxed_order', true),
                            set_config('hnsw.ef_search', '200', true)`;
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

  async function chooseStrategy(tx: DbTx, workspaceId: string, model: string): Promise<NearestStrategy> {
    const key = `${workspaceId}\u0000${model}`;
    const known = strategies.get(key);
    if (known && known.until > Date.now()) return known.strategy;
    // Counting stops at the threshold: whether there are more is all the choice needs.
    const [{ count }] = await tx.$queryRaw<[{ count: number }]>`
      SELECT count(*)::int AS count FROM (
        SELECT 1 FROM artifact_embeddings WHERE workspace_id = ${workspaceId} AND searchable AND model = ${model}
        LIMIT ${exactScanMaxVectors + 1}) AS capped`;
    const strategy: NearestStrategy = count <= exactScanMaxVectors ? "exact" : "hnsw";
    if (strategies.size > 10_000) strategies.clear();
    strategies.set(key, { strategy, until: Date.now() + STRATEGY_TTL_MS });
    return strategy;
  }

  /** Ids of the artifacts nearest to the query in one workspace, each by its nearest vector. */
  async function nearest(tx: DbTx, workspaceId: string, query: QueryVector): Promise<{ ids: string[]; strategy: NearestStrategy }> {
    const strategy = await chooseStrategy(tx, workspaceId, query.model);
    await useNearestStrategy(tx, strategy);
    const rows = await tx.$queryRaw<Array<{ id: string }>>(nearestQuery(strategy, workspaceId, query));
    return { ids: rows.map((row) => row.id), strategy };
  }

  return {
    /**
     * Candidates among the validated artifacts of one workspace: the nearest vectors of the
     * query's model, and the full-text hits on any of the query's words; each with its
     * similarity (that of its nearest vector row) and the query words it contains.
     */
    async candidates(workspaceId: string, query: HybridQuery): Promise<ArtifactCandidate[]> {
      let nearestIds: string[] = [];
      if (query.vector) {
        const vector = query.vector;
        // Only HNSW needs session settings, so only it opens a transaction, and that transaction
        // holds the nearest-neighbour query alone: the settings must not steer the plan below.
        const hnsw = (await chooseStrategy(db, workspaceId, vector.model)) === "hnsw";
        const found = hnsw ? await db.$transaction((tx) => nearest(tx, workspaceId, vector)) : await nearest(db, workspaceId, vector);
        nearestIds = found.ids;
      }
      return db.$queryRaw<ArtifactCandidate[]>(
        hybridCandidatesSql(
          {
            table: "artifacts",
            where: Prisma.sql`t.workspace_id = ${workspaceId} AND t.status = 'validated'`,
            columns: Prisma.sql`t.summary`,
            vectors: {
              kind: "rows",
              nearestIds,
              similarity: (vector, model) => Prisma.sql`(SELECT max(1 - (e.embedding <=> ${vector})) FROM artifact_embeddings e
                                                         WHERE e.artifact_id = t.id AND e.model = ${model})`,
            },
          },
          query,
        ),
      );
    },

    /** The nearest-neighbour half alone, for measuring it. */
    nearest,
  };
}

export type ArtifactSearchRepository = ReturnType<typeof createArtifactSearchRepository>;
