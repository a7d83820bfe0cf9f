import type { Db } from "../db/database";
import { toVectorLiteral } from "../embeddings/embeddings-provider";
import { Prisma } from "../generated/prisma/client";
import type { ExactDistance } from "../db/vector-distance";
import { exactScan, hybridCandidates, type CandidateScores, type OwnIndex } from "../search/hybrid-candidates";
import type { HybridQuery, QueryVector } from "../search/hybrid-query";
import { createVectorIndexRepository, VECTORS_PER_ARTIFACT, workspaceIndexName, type VectorIndexRepository } from "./vector-index.repository";

/** How many nearest artifacts and how many full-text hits are considered before fusing. */
export const CANDIDATES_PER_SIDE = 50;

export type NearestStrategy = "exact" | "index";

export type ArtifactCandidate = CandidateScores;

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

export function createArtifactSearchRepository(db: Db, vectorIndexes: VectorIndexRepository = createVectorIndexRepository(db)) {
  /** The workspace's own index of artifact vectors, if it has one yet. */
  async function ownIndex(workspaceId: string) {
    return (await vectorIndexes.ownIndexes(workspaceId)).get("artifact_embeddings");
  }

  /** The artifacts nearest to the query in one workspace, each by its nearest vector, and the strategy used. */
  async function nearest(workspaceId: string, query: QueryVector): Promise<{ ids: string[]; strategy: NearestStrategy }> {
    const own = await ownIndex(workspaceId);
    const rows = await db.$queryRaw<Array<{ id: string }>>(nearestQuery(workspaceId, query, { exactDistance: vectorIndexes.exactDistance, own }));
    return { ids: rows.map((row) => row.id), strategy: own ? "index" : "exact" };
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
          collection: { workspaceId, name: "artifacts", keyOwner: "workspace_id", keyOwnerId: workspaceId },
          columns: Prisma.sql`t.summary`,
          vectors: {
            nearest: async (vector) => nearestQuery(workspaceId, vector, { exactDistance: vectorIndexes.exactDistance, own: await ownIndex(workspaceId) }),
            similarity: (vector, model) => Prisma.sql`(SELECT max(1 - (e.embedding <=> ${vector})) FROM artifact_embeddings e
                                                       WHERE e.workspace_id = t.workspace_id AND e.artifact_id = t.id AND e.model = ${model})`,
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
