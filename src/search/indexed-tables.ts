import { Prisma } from "../generated/prisma/client";

/**
 * Every table whose rows carry a vector: how to find the rows whose vector is pending (none yet, or
 * made by another model), the text to embed for each, and where the vector goes.
 */
export interface IndexedTable {
  name: "artifacts" | "memories" | "queryPatterns" | "errorLearnings";
  /** Up to `limit` pending rows as {id, text}, optionally of one workspace. */
  pending(model: string, limit: number, workspaceId?: string): Prisma.Sql;
  /** Stores a batch of vectors (pgvector text form) in one statement. */
  storeMany(ids: string[], vectorLiterals: string[], model: string): Prisma.Sql;
  /** Marks every vector of a workspace pending again (a reindex). */
  clear(workspaceId: string): Prisma.Sql;
}

const inWorkspace = (column: Prisma.Sql, workspaceId?: string) =>
  workspaceId === undefined ? Prisma.empty : Prisma.sql`AND ${column} = ${workspaceId}`;

/** A table that keeps its vector in `embedding` beside `embedding_model`. */
function ownColumnTable(
  name: IndexedTable["name"],
  tableName: "memories" | "query_patterns" | "error_learnings",
  text: Prisma.Sql,
): IndexedTable {
  const table = Prisma.raw(`"${tableName}"`);
  return {
    name,
    pending: (model, limit, workspaceId) => Prisma.sql`
      SELECT id, ${text} AS text FROM ${table}
      WHERE (embedding IS NULL OR embedding_model IS DISTINCT FROM ${model}) ${inWorkspace(Prisma.sql`workspace_id`, workspaceId)}
      ORDER BY created_at LIMIT ${limit}`,
    storeMany: (ids, vectors, model) => Prisma.sql`
      UPDATE ${table} t SET embedding = v.vector::vector, embedding_model = ${model}
      FROM unnest(${ids}::text[], ${vectors}::text[]) AS v(id, vector) WHERE t.id = v.id`,
    clear: (workspaceId) =>
      Prisma.sql`UPDATE ${table} SET embedding = NULL, embedding_model = NULL WHERE workspace_id = ${workspaceId}`,
  };
}

export const INDEXED_TABLES: IndexedTable[] = [
  {
    // Artifact vectors live in the narrow artifact_embeddings table, one per facet (see the schema).
    name: "artifacts",
    pending: (model, limit, workspaceId) => Prisma.sql`
      SELECT e.id,
             CASE e.facet
               WHEN 'headline' THEN concat_ws(E'\n', a.summary,
                 (SELECT string_agg(f, E'\n') FROM jsonb_array_elements_text(
                    CASE WHEN jsonb_typeof(a.key_findings) = 'array' THEN a.key_findings ELSE '[]'::jsonb END) AS f))
               ELSE concat_ws(E'\n', a.summary, a.why, a.recommendation)
             END AS text
      FROM artifact_embeddings e JOIN artifacts a ON a.id = e.artifact_id
      WHERE (e.embedding IS NULL OR e.model IS DISTINCT FROM ${model}) ${inWorkspace(Prisma.sql`e.workspace_id`, workspaceId)}
      ORDER BY a.created_at LIMIT ${limit}`,
    storeMany: (ids, vectors, model) => Prisma.sql`
      UPDATE artifact_embeddings e SET embedding = v.vector::vector, model = ${model}
      FROM unnest(${ids}::text[], ${vectors}::text[]) AS v(id, vector) WHERE e.id = v.id`,
    clear: (workspaceId) =>
      Prisma.sql`UPDATE artifact_embeddings SET embedding = NULL, model = NULL WHERE workspace_id = ${workspaceId}`,
  },
  ownColumnTable("memories", "memories", Prisma.sql`concat_ws(E'\n', statement, going_forward)`),
  ownColumnTable("queryPatterns", "query_patterns", Prisma.sql`concat_ws(E'\n', question, result_summary)`),
  ownColumnTable("errorLearnings", "error_learnings", Prisma.sql`concat_ws(E'\n', learning, error_message)`),
];
