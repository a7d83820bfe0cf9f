import type { DbTx } from "../db/database";
import { toVectorLiteral } from "../embeddings/embeddings-provider";
import { Prisma } from "../generated/prisma/client";

/** A vector row by its primary key, which names its workspace. */
export interface RowKey {
  workspaceId: string;
  id: string;
}

/** A row the indexer holds: its key and the text its vector is made from. */
export interface ClaimedRow extends RowKey {
  text: string | null;
}

/** A workspace's index state in one table, for the current model. */
export interface IndexState {
  /** Vectors still to make (none yet, another model's, or refused fewer than the maximum times). */
  pending: number;
  /** Rows set aside after being refused the maximum number of times; `reindex` retries them. */
  failed: number;
  /** Rows with a vector of the current model. */
  embedded: number;
  /** Rows whose text is empty: nothing to embed, found by full-text search alone. */
  skipped: number;
  /**
   * Of `pending`, the rows of the first priority tier: items not yet findable by meaning (an
   * artifact without its headline vector, a ledger memory; for patterns and learnings, every
   * pending row). An artifact's memory-bank entry is second tier: its artifact is findable by its headline.
   */
  unfindable: number;
}

/** The rows of one priority tier still to embed, across workspaces (the operator's view: docs/operations.md). */
export interface TierBacklog {
  tier: number;
  pending: number;
  /** Seconds since the oldest pending row joined the backlog (its queued_at); 0 when none is pending. */
  oldestPendingSeconds: number;
  /** Rows set aside after `maxAttempts` refusals. */
  failed: number;
}

export interface RowFailure {
  id: string;
  attempts: number;
  error: string | null;
}

export type EmbeddedTableName = "artifacts" | "memories" | "queryPatterns" | "errorLearnings";

/**
 * The rows of one table whose vectors are still to make. A row is pending while its model column
 * differs from the current model (a model change re-embeds everything), it was refused fewer than
 * `maxAttempts` times, and no indexer's claim on it is live. A row whose text is empty gets the
 * model with no vector ("skipped"), so it is never pending again.
 */
export interface EmbeddingQueue {
  name: EmbeddedTableName;
  /**
   * Priority tiers of the table's rows, 0 first: the vector that makes an item findable by meaning
   * is tier 0; vectors that refine an item already found (an artifact's other facets) come later.
   */
  tiers: number;
  /**
   * Claims up to `limit` pending rows of one tier for `leaseSeconds` and returns them with their
   * text, in one statement: rows locked by another indexer are skipped, so indexers never share a row.
   */
  claim(options: { model: string; limit: number; leaseSeconds: number; maxAttempts: number; workspaceId?: string; tier: number }): Promise<ClaimedRow[]>;
  /** Stores the rows' vectors, clearing claim and error. */
  storeMany(rows: RowKey[], vectors: number[][], model: string): Promise<void>;
  /** Marks rows with nothing to embed as done for this model. */
  skipMany(rows: RowKey[], model: string): Promise<void>;
  /** Counts one refusal of a row, with its error, and lets go of it. */
  recordFailure(row: RowKey, error: string): Promise<void>;
  /** Lets go of rows without counting anything (an abandoned batch): they are pending again. */
  release(rows: RowKey[]): Promise<void>;
  /** Marks every vector of a workspace pending again, failed ones included (a reindex); how many. */
  clear(workspaceId: string): Promise<number>;
  state(workspaceId: string, model: string, maxAttempts: number): Promise<IndexState>;
  /**
   * Pending and failed rows per tier across every workspace, in one statement that reads the
   * pending rows through the indexes of the claim: meant for a metrics collection every half
   * minute or so, not for a request.
   */
  backlog(model: string, maxAttempts: number): Promise<TierBacklog[]>;
  /** The failed rows of a workspace with their last error. */
  failures(workspaceId: string, model: string, maxAttempts: number, limit: number): Promise<RowFailure[]>;
}

interface TableShape {
  name: EmbeddedTableName;
  table: "artifact_embeddings" | "memories" | "query_patterns" | "error_learnings";
  modelColumn: "model" | "embedding_model";
  /** The row's text on alias `t`, with `joins` in scope. */
  text: Prisma.Sql;
  joins: Prisma.Sql;
  /** Oldest first, so a backlog is worked through in the order it was written. */
  order: Prisma.Sql;
  /** The condition of each priority tier on alias `t`, first tier first. */
  tiers: Prisma.Sql[];
  /**
   * When the row joined the backlog, on alias `t`: written, or cleared for a reindex. Not its
   * created_at, which an import sets to the time of what the row records.
   */
  queuedAt: Prisma.Sql;
}

/** The positions of `rows` by workspace, in the order the workspaces first appear. */
function byWorkspace(rows: RowKey[]): Map<string, number[]> {
  const positions = new Map<string, number[]>();
  rows.forEach((row, i) => positions.set(row.workspaceId, [...(positions.get(row.workspaceId) ?? []), i]));
  return positions;
}

function embeddingQueue(db: DbTx, shape: TableShape): EmbeddingQueue {
  const table = Prisma.raw(`"${shape.table}"`);
  const model = Prisma.raw(shape.modelColumn);
  // "Not of the current model" as the two conditions an index serves (migration
  // `pending_embeddings`): no model yet (written, or cleared for a reindex), in the partial
  // indexes of those rows only; another model's, as two ranges of the model index. IS DISTINCT
  // FROM says the same, but no index serves it: every look would read the whole table.
  const queued = Prisma.sql`t.${model} IS NULL`;
  const ofAnotherModel = (current: string) => Prisma.sql`(t.${model} < ${current} OR t.${model} > ${current})`;
  const notCurrent = (current: string) => Prisma.sql`(${queued} OR ${ofAnotherModel(current)})`;
  const pending = (current: string, maxAttempts: number) => Prisma.sql`${notCurrent(current)} AND t.embed_attempts < ${maxAttempts}`;
  /** One claim of the rows matching `which`, oldest first when `ordered`. */
  const claimWhere = async (
    which: Prisma.Sql,
    ordered: boolean,
    { limit, leaseSeconds, maxAttempts, workspaceId, tier }: { limit: number; leaseSeconds: number; maxAttempts: number; workspaceId?: string; tier: number },
  ): Promise<ClaimedRow[]> => {
    const claimable = Prisma.sql`${which} AND t.embed_attempts < ${maxAttempts} AND (t.claimed_until IS NULL OR t.claimed_until < now()) AND ${shape.tiers[tier]!}`;
    const order = ordered ? Prisma.sql`ORDER BY ${shape.order}` : Prisma.empty;
    const workspace =
      workspaceId ??
      (await db.$queryRaw<Array<{ workspaceId: string }>>`
        SELECT t.workspace_id AS "workspaceId" FROM ${table} t WHERE ${claimable} ${order} LIMIT 1`)[0]?.workspaceId;
    if (workspace === undefined) return [];
    return db.$queryRaw<ClaimedRow[]>`
      WITH claimed AS (
        UPDATE ${table} SET claimed_until = now() + make_interval(secs => ${leaseSeconds})
        WHERE workspace_id = ${workspace} AND id IN (
          SELECT t.id FROM ${table} t
          WHERE t.workspace_id = ${workspace} AND ${claimable}
          ${order} LIMIT ${limit}
          FOR UPDATE OF t SKIP LOCKED)
        RETURNING id)
      SELECT t.workspace_id AS "workspaceId", t.id, ${shape.text} AS text FROM ${table} t ${shape.joins}
      WHERE t.workspace_id = ${workspace} AND t.id IN (SELECT id FROM claimed) ORDER BY ${shape.order}`;
  };
  return {
    name: shape.name,
    tiers: shape.tiers.length,
    // The background claim takes the workspace of the oldest pending row, then claims within it:
    // every statement that locks names one workspace, which is what a distributed PostgreSQL
    // (Citus) locks rows in (docs/deployment.md §6). A batch holds one workspace's rows. Rows of
    // another model come after the rows without one, in no particular order: they are a model
    // change's backlog, which a sort of the whole table per batch would only slow down.
    claim: async ({ model: current, ...options }) => {
      const rows = await claimWhere(queued, true, options);
      return rows.length > 0 ? rows : claimWhere(ofAnotherModel(current), false, options);
    },
    // Rows are written workspace by workspace, each statement naming its workspace (one node on Citus).
    storeMany: async (rows, vectors, current) => {
      for (const [workspaceId, at] of byWorkspace(rows)) {
        await db.$executeRaw`
          UPDATE ${table} t SET embedding = v.vector::vector, ${model} = ${current}, embed_attempts = 0, embed_error = NULL, claimed_until = NULL
          FROM unnest(${at.map((i) => rows[i]!.id)}::text[], ${at.map((i) => toVectorLiteral(vectors[i]!))}::text[]) AS v(id, vector)
          WHERE t.workspace_id = ${workspaceId} AND t.id = v.id`;
      }
    },
    skipMany: async (rows, current) => {
      for (const [workspaceId, at] of byWorkspace(rows)) {
        await db.$executeRaw`
          UPDATE ${table} SET embedding = NULL, ${model} = ${current}, embed_attempts = 0, embed_error = NULL, claimed_until = NULL
          WHERE workspace_id = ${workspaceId} AND id = ANY(${at.map((i) => rows[i]!.id)}::text[])`;
      }
    },
    recordFailure: async (row, error) => {
      await db.$executeRaw`
        UPDATE ${table} SET embed_attempts = embed_attempts + 1, embed_error = ${error}, claimed_until = NULL
        WHERE workspace_id = ${row.workspaceId} AND id = ${row.id}`;
    },
    release: async (rows) => {
      for (const [workspaceId, at] of byWorkspace(rows)) {
        await db.$executeRaw`UPDATE ${table} SET claimed_until = NULL WHERE workspace_id = ${workspaceId} AND id = ANY(${at.map((i) => rows[i]!.id)}::text[])`;
      }
    },
    clear: (workspaceId) => db.$executeRaw`
      UPDATE ${table} SET embedding = NULL, ${model} = NULL, embed_attempts = 0, embed_error = NULL, queued_at = now() WHERE workspace_id = ${workspaceId}`,
    state: async (workspaceId, current, maxAttempts) => {
      const [counts] = await db.$queryRaw<[IndexState]>`
        SELECT count(*) FILTER (WHERE ${pending(current, maxAttempts)})::int AS pending,
               count(*) FILTER (WHERE ${notCurrent(current)} AND t.embed_attempts >= ${maxAttempts})::int AS failed,
               count(*) FILTER (WHERE t.${model} = ${current} AND t.embedding IS NOT NULL)::int AS embedded,
               count(*) FILTER (WHERE t.${model} = ${current} AND t.embedding IS NULL)::int AS skipped,
               count(*) FILTER (WHERE ${pending(current, maxAttempts)} AND ${shape.tiers[0]!})::int AS unfindable
        FROM ${table} t WHERE t.workspace_id = ${workspaceId}`;
      return counts;
    },
    backlog: async (current, maxAttempts) => {
      const tierOf = Prisma.sql`CASE ${Prisma.join(shape.tiers.map((condition, tier) => Prisma.sql`WHEN ${condition} THEN ${tier}::int`), " ")} END`;
      const rows = await db.$queryRaw<TierBacklog[]>`
        SELECT ${tierOf} AS tier,
               count(*) FILTER (WHERE t.embed_attempts < ${maxAttempts})::int AS pending,
               coalesce(extract(epoch FROM now() - min(${shape.queuedAt}) FILTER (WHERE t.embed_attempts < ${maxAttempts})), 0)::float8 AS "oldestPendingSeconds",
               count(*) FILTER (WHERE t.embed_attempts >= ${maxAttempts})::int AS failed
        FROM ${table} t ${shape.joins}
        WHERE ${notCurrent(current)}
        GROUP BY 1`;
      return shape.tiers.map((_, tier) => rows.find((row) => row.tier === tier) ?? { tier, pending: 0, oldestPendingSeconds: 0, failed: 0 });
    },
    failures: (workspaceId, current, maxAttempts, limit) => db.$queryRaw<RowFailure[]>`
      SELECT t.id, t.embed_attempts AS attempts, t.embed_error AS error FROM ${table} t
      WHERE t.workspace_id = ${workspaceId} AND ${notCurrent(current)} AND t.embed_attempts >= ${maxAttempts}
      ORDER BY t.id LIMIT ${limit}`,
  };
}

const ownColumnTable = (name: EmbeddedTableName, table: TableShape["table"], text: Prisma.Sql, tiers = [Prisma.sql`TRUE`]): TableShape => ({
  name,
  table,
  modelColumn: "embedding_model",
  text,
  joins: Prisma.empty,
  order: Prisma.sql`t.created_at, t.id`,
  tiers,
  queuedAt: Prisma.sql`t.queued_at`,
});

const EMBEDDED_TABLES: TableShape[] = [
  {
    // Artifact vectors live in the narrow artifact_embeddings table, one per facet (see the schema).
    // Their ids start with the artifact's time-sortable id, so id order is write order.
    name: "artifacts",
    table: "artifact_embeddings",
    modelColumn: "model",
    joins: Prisma.sql`JOIN artifacts a ON a.workspace_id = t.workspace_id AND a.id = t.artifact_id`,
    text: Prisma.sql`CASE t.facet
      WHEN 'headline' THEN concat_ws(E'\n', a.summary,
        (SELECT string_agg(f, E'\n') FROM jsonb_array_elements_text(
           CASE WHEN jsonb_typeof(a.key_findings) = 'array' THEN a.key_findings ELSE '[]'::jsonb END) AS f))
      ELSE coalesce(t.text, concat_ws(E'\n', a.summary, a.why, a.recommendation))
    END`,
    order: Prisma.sql`t.id`,
    // The headline makes an artifact findable by meaning; the body vector only sharpens its rank.
    // Each tier names its facet (of the two) so that the partial indexes, keyed by facet, serve it.
    tiers: [Prisma.sql`t.facet = 'headline'`, Prisma.sql`t.facet = 'body'`],
    queuedAt: Prisma.sql`t.queued_at`,
  },
  // An artifact's memory-bank entry states its summary, which the artifact's headline makes findable
  // already: ledger memories first, the entries with the artifacts' bodies (migration
  // `memory_bank_second_tier`, whose partial indexes match these conditions).
  ownColumnTable("memories", "memories", Prisma.sql`concat_ws(E'\n', t.statement, t.going_forward)`, [
    Prisma.sql`t.artifact_id IS NULL`,
    Prisma.sql`t.artifact_id IS NOT NULL`,
  ]),
  ownColumnTable("queryPatterns", "query_patterns", Prisma.sql`concat_ws(E'\n', t.question, t.result_summary)`),
  ownColumnTable("errorLearnings", "error_learnings", Prisma.sql`concat_ws(E'\n', t.learning, t.error_message)`),
];

/** One queue for every table whose rows carry a vector, in the order the indexer takes turns. */
export function createEmbeddingQueues(db: DbTx): EmbeddingQueue[] {
  return EMBEDDED_TABLES.map((shape) => embeddingQueue(db, shape));
}
