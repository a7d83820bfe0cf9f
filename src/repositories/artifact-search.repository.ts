import type { Db } from "../db/database";
import { toVectorLiteral } from "../embeddings/embeddings-provider";
import { Prisma } from "../generated/prisma/client";
import type { SearchCandidate } from "../search/hybrid-score";
import type { QueryVector } from "../search/query-embedding";
import { anyLexemeTsQuery, matchedLexemes, queryLexemes } from "../search/text-query";

/** How many nearest neighbours and how many full-text hits are considered before fusing. */
export const CANDIDATES_PER_SIDE = 50;

export interface ArtifactSearchCandidates {
  candidates: SearchCandidate[];
  queryLexemeCount: number;
}

export function createArtifactSearchRepository(db: Db) {
  return {
    /**
     * Candidates among the validated artifacts of one workspace: the nearest vectors of the
     * query's model, and the full-text hits on any of the query's words; each with its
     * similarity and the query words it contains.
     */
    async candidates(workspaceId: string, text: string, query: QueryVector | undefined): Promise<ArtifactSearchCandidates> {
      const lexemes = queryLexemes(text);
      const tsQuery = anyLexemeTsQuery(lexemes);
      const vector = query ? toVectorLiteral(query.vector) : null;
      const nearest = query
        ? Prisma.sql`SELECT artifact_id AS id FROM artifact_embeddings
            WHERE workspace_id = ${workspaceId} AND searchable AND model = ${query.model}
            ORDER BY embedding <=> ${vector}::vector LIMIT ${CANDIDATES_PER_SIDE * 2}`
        : Prisma.sql`SELECT NULL::text AS id WHERE false`;
      // An artifact is as similar as its nearer facet.
      const similarity = query
        ? Prisma.sql`(SELECT max(1 - (e.embedding <=> ${vector}::vector)) FROM artifact_embeddings e
                      WHERE e.artifact_id = c.id AND e.model = ${query.model})`
        : Prisma.sql`NULL::float8`;
      return db.$transaction(async (tx) => {
        // pgvector 0.8: keep walking the HNSW graph until enough rows pass the workspace filter,
        // instead of returning fewer than asked for when other workspaces' vectors are nearer.
        await tx.$executeRaw`SET LOCAL hnsw.iterative_scan = relaxed_order`;
        const rows = await tx.$queryRaw<Array<{ id: string; similarity: number | null; matchedLexemes: string[]; lexemeCount: number }>>`
          WITH nearest AS (${nearest}),
          lexical AS (
            SELECT a.id FROM artifacts a
            WHERE a.workspace_id = ${workspaceId} AND a.status = 'validated' AND a.search_document @@ ${tsQuery}
            ORDER BY ts_rank_cd(a.search_document, ${tsQuery}) DESC LIMIT ${CANDIDATES_PER_SIDE}
          ),
          candidate AS (SELECT id FROM nearest UNION SELECT id FROM lexical)
          SELECT c.id,
                 ${similarity} AS similarity,
                 ${matchedLexemes(lexemes, Prisma.sql`a.search_document`)} AS "matchedLexemes",
                 cardinality(${lexemes}) AS "lexemeCount"
          FROM candidate c
          JOIN artifacts a ON a.id = c.id
          WHERE a.workspace_id = ${workspaceId} AND a.status = 'validated'`;
        const lexemeCount = rows[0]?.lexemeCount ?? 0;
        return {
          candidates: rows.map((row) => ({ id: row.id, similarity: row.similarity, matchedLexemes: row.matchedLexemes })),
          queryLexemeCount: Number(lexemeCount),
        };
      });
    },
  };
}

export type ArtifactSearchRepository = ReturnType<typeof createArtifactSearchRepository>;
