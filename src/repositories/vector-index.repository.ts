import { createHash } from "node:crypto";
import type { DbTx } from "../db/database";

/** The tables that hold vectors, each searched within one workspace. */
export type VectorTable = "artifact_embeddings" | "memories" | "query_patterns" | "error_learnings";

/** Which rows of a table a workspace's own index holds: those a search may return. */
const INDEXED_ROWS: Record<VectorTable, string> = {
  artifact_embeddings: " AND searchable",
  memories: " AND active",
  query_patterns: "",
  error_learnings: "",
};

/** The collections (search_term_counts) whose sizes make up each table's share of a workspace. */
const COLLECTIONS_OF: Record<VectorTable, string> = {
  artifact_embeddings: "artifacts",
  memories: "memories",
  query_patterns: "query_patterns:%",
  error_learnings: "error_learnings:%",
};

/**
 * How long a workspace's list of own indexes is reused. A new index is used at most this long
 * after it is made; until then the exact scan answers, which is always correct.
 */
export const VECTOR_INDEX_LOOKUP_TTL_MS = 60_000;

/** A workspace id as an SQL literal: the statements below name it literally (see the migration). */
function literal(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** The name of a workspace's index on a table: stable, short enough for PostgreSQL's 63 bytes. */
export function workspaceIndexName(workspaceId: string, table: VectorTable): string {
  return `${table}_hnsw_${createHash("sha256").update(workspaceId).digest("hex").slice(0, 16)}`;
}

/**
 * HNSW indexes of one workspace each (migration `search_at_scale`): one index shared by every
 * workspace, filtered after the scan, visits others' vectors and returns fewer rows than asked
 * for a small workspace; a partial index per large workspace holds only its own rows.
 */
export function createVectorIndexRepository(db: DbTx, options: { ttlMs?: number } = {}) {
  const ttlMs = options.ttlMs ?? VECTOR_INDEX_LOOKUP_TTL_MS;
  const known = new Map<string, { tables: Set<VectorTable>; until: number }>();

  return {
    /** The tables on which a workspace has an index of its own. */
    async indexedTables(workspaceId: string): Promise<Set<VectorTable>> {
      const cached = known.get(workspaceId);
      if (cached && cached.until > Date.now()) return cached.tables;
      const rows = await db.$queryRaw<Array<{ table: VectorTable }>>`
        SELECT vector_table AS "table" FROM workspace_vector_indexes WHERE workspace_id = ${workspaceId}`;
      const tables = new Set(rows.map((row) => row.table));
      if (known.size > 10_000) known.clear();
      known.set(workspaceId, { tables, until: Date.now() + ttlMs });
      return tables;
    },

    /** Workspaces whose searchable documents on a table number more than `minDocuments`, and which have no index of their own there. */
    async due(minDocuments: number): Promise<Array<{ workspaceId: string; table: VectorTable }>> {
      const tables = Object.keys(COLLECTIONS_OF) as VectorTable[];
      return db.$queryRaw<Array<{ workspaceId: string; table: VectorTable }>>`
        SELECT c.workspace_id AS "workspaceId", v.vector_table AS "table"
        FROM search_term_counts c
        JOIN unnest(${tables}::text[], ${tables.map((table) => COLLECTIONS_OF[table])}::text[]) AS v(vector_table, collections)
          ON c.collection LIKE v.collections
        WHERE c.lexeme = '' AND c.documents > 0
          AND NOT EXISTS (SELECT 1 FROM workspace_vector_indexes i WHERE i.workspace_id = c.workspace_id AND i.vector_table = v.vector_table)
        GROUP BY c.workspace_id, v.vector_table
        HAVING sum(c.documents) > ${minDocuments}
        ORDER BY sum(c.documents) DESC`;
    },

    /**
     * Builds a workspace's index on a table and lists it. Concurrently where the database allows
     * it, so that writes to the table go on meanwhile; an index left invalid by a build that
     * failed is dropped and built again.
     */
    async create(workspaceId: string, table: VectorTable, { concurrently }: { concurrently: boolean }): Promise<string> {
      const name = workspaceIndexName(workspaceId, table);
      const [existing] = await db.$queryRaw<Array<{ valid: boolean }>>`
        SELECT i.indisvalid AS valid FROM pg_index i WHERE i.indexrelid = to_regclass(${`"${name}"`})`;
      const how = concurrently ? "CONCURRENTLY " : "";
      if (existing && !existing.valid) await db.$executeRawUnsafe(`DROP INDEX ${how}IF EXISTS "${name}"`);
      if (!existing?.valid) {
        await db.$executeRawUnsafe(
          `CREATE INDEX ${how}IF NOT EXISTS "${name}" ON "${table}" USING hnsw (embedding halfvec_cosine_ops)
           WHERE workspace_id = ${literal(workspaceId)}${INDEXED_ROWS[table]}`,
        );
      }
      await db.$executeRaw`
        INSERT INTO workspace_vector_indexes (workspace_id, vector_table, index_name) VALUES (${workspaceId}, ${table}, ${name})
        ON CONFLICT (workspace_id, vector_table) DO NOTHING`;
      known.delete(workspaceId);
      return name;
    },
  };
}

export type VectorIndexRepository = ReturnType<typeof createVectorIndexRepository>;
