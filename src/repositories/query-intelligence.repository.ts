import type { DbTx } from "../db/database";
import { Prisma } from "../generated/prisma/client";
import { newId } from "../lib/ids";
import { hybridCandidates, ownColumnVectors, type CandidateScores, type HybridSearchSource } from "../search/hybrid-candidates";
import type { HybridQuery } from "../search/hybrid-query";
import { createVectorIndexRepository, type VectorIndexRepository } from "./vector-index.repository";

export interface QueryPatternRecord {
  question: string;
  sql: string;
  resultSummary: string | null;
  successCount: number;
  lastUsedAt: Date | null;
}

export interface ErrorLearningRecord {
  failedSql: string;
  errorMessage: string;
  learning: string;
  createdAt: Date;
}

export type QueryPatternCandidate = QueryPatternRecord & CandidateScores;
export type ErrorLearningCandidate = ErrorLearningRecord & CandidateScores;

const ofSource = (workspaceId: string, dataSourceId: string) =>
  Prisma.sql`t.workspace_id = ${workspaceId} AND t.data_source_id = ${dataSourceId}`;

/** Proven query patterns and past error learnings of a data source. */
export function createQueryIntelligenceRepository(db: DbTx, vectorIndexes: VectorIndexRepository = createVectorIndexRepository(db)) {
  /** One data source's rows of a table, each table a collection of its own. */
  const ofSourceIn = (table: "query_patterns" | "error_learnings", workspaceId: string, dataSourceId: string) => ({
    table,
    where: ofSource(workspaceId, dataSourceId),
    collection: { workspaceId, name: `${table}:${dataSourceId}`, keyOwner: "data_source_id", keyOwnerId: dataSourceId } satisfies HybridSearchSource["collection"],
    vectors: ownColumnVectors(table, ofSource(workspaceId, dataSourceId), {
      workspaceId,
      scope: dataSourceId,
      ownIndex: async () => (await vectorIndexes.ownIndexes(workspaceId)).get(table),
      exactDistance: vectorIndexes.exactDistance,
    }),
  });

  return {
    searchPatternCandidates(workspaceId: string, dataSourceId: string, query: HybridQuery): Promise<QueryPatternCandidate[]> {
      return hybridCandidates(
        (sql) => db.$queryRaw<QueryPatternCandidate[]>(sql),
        {
          ...ofSourceIn("query_patterns", workspaceId, dataSourceId),
          columns: { question: "t.question", sql: "t.sql", resultSummary: "t.result_summary", successCount: "t.success_count", lastUsedAt: "t.last_used_at" },
        },
        query,
      );
    },

    searchLearningCandidates(workspaceId: string, dataSourceId: string, query: HybridQuery): Promise<ErrorLearningCandidate[]> {
      return hybridCandidates(
        (sql) => db.$queryRaw<ErrorLearningCandidate[]>(sql),
        {
          ...ofSourceIn("error_learnings", workspaceId, dataSourceId),
          columns: { failedSql: "t.failed_sql", errorMessage: "t.error_message", learning: "t.learning", createdAt: "t.created_at" },
        },
        query,
      );
    },

    /** A source's patterns and learnings, every one, for an export: patterns by question, learnings oldest first. */
    async listForSource(workspaceId: string, dataSourceId: string): Promise<{ patterns: QueryPatternRecord[]; learnings: ErrorLearningRecord[] }> {
      const where = { workspaceId, dataSourceId };
      const [patterns, learnings] = await Promise.all([
        db.queryPattern.findMany({
          where,
          select: { question: true, sql: true, resultSummary: true, successCount: true, lastUsedAt: true },
          // By what they say, not by id: two workspaces holding the same patterns export them alike.
          orderBy: [{ question: "asc" }, { sql: "asc" }, { id: "asc" }],
        }),
        db.errorLearning.findMany({
          where,
          select: { failedSql: true, errorMessage: true, learning: true, createdAt: true },
          orderBy: [{ createdAt: "asc" }, { failedSql: "asc" }, { id: "asc" }],
        }),
      ]);
      return { patterns, learnings };
    },

    /** Replaces a source's patterns and learnings; the new rows' vectors are left pending for the indexer. */
    async replaceForSource(
      workspaceId: string,
      dataSourceId: string,
      patterns: Array<QueryPatternRecord & { createdAt: Date }>,
      learnings: ErrorLearningRecord[],
    ): Promise<void> {
      const where = { workspaceId, dataSourceId };
      await db.queryPattern.deleteMany({ where });
      await db.errorLearning.deleteMany({ where });
      await db.queryPattern.createMany({ data: patterns.map((pattern) => ({ id: newId("qp"), ...where, ...pattern })) });
      await db.errorLearning.createMany({ data: learnings.map((learning) => ({ id: newId("el"), ...where, ...learning })) });
    },
  };
}

export type QueryIntelligenceRepository = ReturnType<typeof createQueryIntelligenceRepository>;
