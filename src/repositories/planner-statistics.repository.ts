import type { DbTx } from "../db/database";

/** The tables whose plans depend on their size: the searched ones and their vectors. */
export const SEARCHED_TABLES = ["artifacts", "artifact_embeddings", "memories", "query_patterns", "error_learnings"] as const;

export type SearchedTable = (typeof SEARCHED_TABLES)[number];

/** The planner's statistics: the embedded engine has no autovacuum to refresh them. */
export function createPlannerStatisticsRepository(db: DbTx) {
  return {
    async refresh(table: SearchedTable): Promise<void> {
      await db.$executeRawUnsafe(`ANALYZE "${table}"`);
    },
  };
}
