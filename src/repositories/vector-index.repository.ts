import { createHash } from "node:crypto";
import type { Database, DbTx } from "../db/database";
import { exactDistanceOn } from "../db/vector-distance";
import type { OwnIndex } from "../search/hybrid-candidates";
import { DEFAULT_INDEX_BUILD_MEMORY_MB } from "../config";
import { ivfflatBuildKb, listsThatFit } from "./ivfflat-build-memory";
import { indexHomeOf, type BuildSession, type IndexFacts } from "./own-index-home";

/** The tables that hold vectors, each searched within one workspace. */
export type VectorTable = "artifact_embeddings" | "memories" | "query_patterns" | "error_learnings";

/** Which rows of a table a workspace's own index holds: those a search may return. */
const INDEXED_ROWS: Record<VectorTable, string> = {
  artifact_embeddings: " AND searchable",
  memories: " AND active",
  query_patterns: "",
  error_learnings: "",
};

/** Vector rows of one artifact at most: its headline, body part 0, and up to 4 body chunks (the migration `artifact_body_chunks`). */
export const VECTORS_PER_ARTIFACT = 6;

/** Vectors one document of a collection holds at most: an artifact several, the others one. */
const MOST_VECTORS_PER_DOCUMENT: Record<VectorTable, number> = {
  artifact_embeddings: VECTORS_PER_ARTIFACT,
  memories: 1,
  query_patterns: 1,
  error_learnings: 1,
};

/** The collections (search_term_counts) whose sizes make up each table's share of a workspace. */
const COLLECTIONS_OF: Record<VectorTable, string> = {
  artifact_embeddings: "artifacts",
  memories: "memories",
  query_patterns: "query_patterns:%",
  error_learnings: "error_learnings:%",
};

/**
 * An own index is IVFFlat: lists of about this many vectors, built from the workspace's vectors
 * at the time. On the 100,000-artifact workspace of `npm run bench:scale` (200,000 vectors),
 * reading 30 lists of 250 vectors found 0.99 of the exact 10 nearest at 7 ms, 30 lists of 500
 * the same at 11 ms; HNSW needed `m` 32, `ef_construction` 200 and `ef_search` 800 for 0.99 at
 * 20 ms, and 8 times the build time (docs/search.md, "At scale").
 */
export const VECTORS_PER_LIST = 250;
/** Past this many lists, k-means (which the build runs over a sample of 50 rows a list) costs more than larger lists do. */
export const MAX_LISTS = 4_000;
/** Lists a search reads at least; past 900 lists, the square root of their number (pgvector's advice). */
export const MIN_PROBES = 30;
/** An index is rebuilt once its workspace holds this many times the documents it was built from: lists grow with every row added, and their centres stay where they were. */
export const REBUILD_GROWTH = 2;

/**
 * A build the upkeep could not do is tried again once the workspace's vectors on the table are
 * this many times (or this fraction of) those it failed with, or once the memory allowed changes.
 */
export const RETRY_CHANGE = 1.25;

/** A workspace's own index that cannot be built within the memory a build may use there. */
export class IndexBuildDoesNotFit extends Error {
  constructor(
    readonly neededKb: number,
    readonly availableKb: number,
  ) {
    super(`an index of even 1 list needs ${Math.ceil(neededKb / 1024)} MB of maintenance_work_mem; a build may use ${Math.floor(availableKb / 1024)} MB`);
    this.name = "IndexBuildDoesNotFit";
  }
}

/** What the upkeep knows of a workspace's own index on one table. */
export type OwnIndexState =
  | { table: VectorTable; state: "built"; documents: number; probes: number; at: Date }
  | { table: VectorTable; state: "unbuildable"; vectors: number; memoryCapMb: number; error: string; at: Date };

/** How many lists a search reads in an index of `lists` lists. */
export function probesFor(lists: number): number {
  return Math.min(lists, Math.max(MIN_PROBES, Math.ceil(Math.sqrt(lists))));
}

/**
 * How long a workspace's list of own indexes is reused. A new index is used at most this long
 * after it is made; until then the exact scan answers, which is always correct.
 */
export const VECTOR_INDEX_LOOKUP_TTL_MS = 60_000;
/**
 * The same for a list that lacks some table's index: one of them may be built any minute, and an
 * exact scan of a large workspace costs far more than the lookup (300 ms against 7 ms through the
 * index at 200,000 vectors; the lookup 0.05 ms; docs/performance.md, "Own index builds").
 */
export const INCOMPLETE_INDEX_LOOKUP_TTL_MS = 5_000;

/** A workspace id as an SQL literal: the statements below name it literally (see the migration). */
function literal(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** The name of a workspace's index on a table: stable, short enough for PostgreSQL's 63 bytes. */
export function workspaceIndexName(workspaceId: string, table: VectorTable): string {
  return `${table}_own_${createHash("sha256").update(workspaceId).digest("hex").slice(0, 16)}`;
}

/**
 * Vector indexes of one workspace each (migration `search_at_scale`): one index shared by every
 * workspace, filtered after the scan, visits others' vectors and returns fewer rows than asked
 * for a small workspace; a partial index per large workspace holds only its own rows.
 */
export function createVectorIndexRepository(
  db: DbTx,
  options: {
    ttlMs?: number;
    engine?: Database["kind"];
    /** A connection of its own per build, where `maintenance_work_mem` is raised for it; without one a build fits the setting as it is. */
    buildSession?: BuildSession;
    /** The most `maintenance_work_mem` a build may raise itself to (INDEX_BUILD_MEMORY_MB). */
    buildMemoryCapMb?: number;
  } = {},
) {
  const ttlMs = options.ttlMs ?? VECTOR_INDEX_LOOKUP_TTL_MS;
  const capKb = (options.buildMemoryCapMb ?? DEFAULT_INDEX_BUILD_MEMORY_MB) * 1024;
  const known = new Map<string, { indexes: Map<VectorTable, OwnIndex>; until: number }>();

  /**
   * Unlists the own indexes that are no longer where their workspace lives: on Citus, a shard the
   * rebalancer moved leaves its index on the old node. The workspace is then searched exactly until
   * `due` has it built again on the new one. Nothing to do elsewhere: the index is the table's.
   */
  async function forgetIndexesLeftBehind(): Promise<void> {
    const [citus] = await db.$queryRaw<Array<{ on: boolean }>>`SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') AS on`;
    if (!citus?.on) return;
    const listed = await db.$queryRaw<Array<{ workspaceId: string; table: VectorTable }>>`
      SELECT workspace_id AS "workspaceId", vector_table AS "table" FROM workspace_vector_indexes`;
    for (const { workspaceId, table } of listed) {
      const home = await indexHomeOf(db, workspaceId, table);
      if ((await home.facts(home.nameOf(workspaceIndexName(workspaceId, table))))?.valid) continue;
      await db.$executeRaw`DELETE FROM workspace_vector_indexes WHERE workspace_id = ${workspaceId} AND vector_table = ${table}`;
      known.delete(workspaceId);
    }
  }

  return {
    /** How a workspace without an index of its own is scanned exactly, on this engine. */
    exactDistance: exactDistanceOn(options.engine ?? "postgres"),

    /** The workspace's own indexes, by table. */
    async ownIndexes(workspaceId: string): Promise<Map<VectorTable, OwnIndex>> {
      const cached = known.get(workspaceId);
      if (cached && cached.until > Date.now()) return cached.indexes;
      const rows = await db.$queryRaw<Array<{ table: VectorTable; probes: number }>>`
        SELECT vector_table AS "table", probes FROM workspace_vector_indexes WHERE workspace_id = ${workspaceId}`;
      const indexes = new Map(rows.map((row) => [row.table, { probes: row.probes }]));
      if (known.size > 10_000) known.clear();
      const complete = indexes.size === Object.keys(INDEXED_ROWS).length;
      known.set(workspaceId, { indexes, until: Date.now() + (complete ? ttlMs : Math.min(ttlMs, INCOMPLETE_INDEX_LOOKUP_TTL_MS)) });
      return indexes;
    },

    /** Forgets what this process knew of the workspace's own indexes (it was deleted). */
    forget(workspaceId: string): void {
      known.delete(workspaceId);
    },

    /**
     * Drops the workspace's own indexes on every table, a rebuild's `_next` among them: they are
     * made with the workspace id written into their predicate, so nothing else removes them.
     * Concurrently where the database allows it, so that searches of other workspaces go on.
     */
    async dropOwnIndexes(workspaceId: string, { concurrently }: { concurrently: boolean }): Promise<string[]> {
      const how = concurrently ? "CONCURRENTLY " : "";
      const dropped: string[] = [];
      for (const table of Object.keys(INDEXED_ROWS) as VectorTable[]) {
        const home = await indexHomeOf(db, workspaceId, table);
        for (const name of [workspaceIndexName(workspaceId, table), `${workspaceIndexName(workspaceId, table)}_next`].map(home.nameOf)) {
          if ((await home.facts(name)) === undefined) continue;
          await home.run(`DROP INDEX ${how}IF EXISTS "${name}"`);
          dropped.push(name);
        }
      }
      known.delete(workspaceId);
      return dropped;
    },

    /** The catalog's facts of a workspace's own index on a table where it lives, or undefined when it has none. */
    async describe(workspaceId: string, table: VectorTable): Promise<(IndexFacts & { name: string }) | undefined> {
      const home = await indexHomeOf(db, workspaceId, table);
      const name = home.nameOf(workspaceIndexName(workspaceId, table));
      const facts = await home.facts(name);
      return facts && { name, ...facts };
    },

    /**
     * Workspaces with more than `minVectors` searchable vectors (rows that have one) on a table and
     * no index of their own there, or one built from fewer than 1/REBUILD_GROWTH of the documents
     * they hold now. The kept document counts pick the candidates; their vectors are then counted,
     * one statement a table grouped by workspace (each group on its own node on Citus): documents
     * alone would make an index due, with 1 list, before a bulk import is embedded. A build that
     * failed waits for its workspace to change by RETRY_CHANGE or for the memory allowed to change.
     * With `workspaceId`, that workspace's alone.
     */
    async due(minVectors: number, workspaceId?: string): Promise<Array<{ workspaceId: string; table: VectorTable; documents: number; vectors: number }>> {
      await forgetIndexesLeftBehind();
      const tables = Object.keys(COLLECTIONS_OF) as VectorTable[];
      const candidates = await db.$queryRaw<
        Array<{ workspaceId: string; table: VectorTable; documents: number; indexed: number | null; refusedAt: number | null; refusedCapKb: number | null }>
      >`
        WITH sizes AS (
          SELECT c.workspace_id, v.vector_table, sum(c.documents)::int AS documents
          FROM search_term_counts c
          JOIN unnest(${tables}::text[], ${tables.map((table) => COLLECTIONS_OF[table])}::text[], ${tables.map((table) => MOST_VECTORS_PER_DOCUMENT[table])}::int[])
            AS v(vector_table, collections, most) ON c.collection LIKE v.collections
          WHERE c.lexeme = '' AND c.documents > 0 AND (${workspaceId ?? null}::text IS NULL OR c.workspace_id = ${workspaceId ?? null})
          GROUP BY c.workspace_id, v.vector_table
          HAVING sum(c.documents) * max(v.most) > ${minVectors}
        )
        SELECT s.workspace_id AS "workspaceId", s.vector_table AS "table", s.documents, i.documents AS indexed,
               r.vectors AS "refusedAt", r.memory_cap_kb AS "refusedCapKb"
        FROM sizes s
        LEFT JOIN workspace_vector_indexes i ON i.workspace_id = s.workspace_id AND i.vector_table = s.vector_table
        LEFT JOIN workspace_vector_index_refusals r ON r.workspace_id = s.workspace_id AND r.vector_table = s.vector_table
        WHERE i.documents IS NULL OR s.documents > i.documents * ${REBUILD_GROWTH}
        ORDER BY s.documents DESC`;
      const vectorsOf = new Map<string, number>();
      for (const table of tables) {
        const ids = candidates.filter((c) => c.table === table).map((c) => c.workspaceId);
        if (ids.length === 0) continue;
        const counted = await db.$queryRawUnsafe<Array<{ workspaceId: string; vectors: number }>>(
          `SELECT workspace_id AS "workspaceId", count(*)::int AS vectors FROM "${table}"
           WHERE workspace_id = ANY($1::text[])${INDEXED_ROWS[table]} AND embedding IS NOT NULL GROUP BY workspace_id`,
          ids,
        );
        for (const row of counted) vectorsOf.set(`${table} ${row.workspaceId}`, row.vectors);
      }
      const due: Array<{ workspaceId: string; table: VectorTable; documents: number; vectors: number }> = [];
      for (const { workspaceId, table, documents, indexed, refusedAt, refusedCapKb } of candidates) {
        const vectors = vectorsOf.get(`${table} ${workspaceId}`) ?? 0;
        // A rebuild waits for the vectors of the added documents as a first build does.
        const enough = indexed === null ? vectors > minVectors : vectors > (indexed * REBUILD_GROWTH) / MOST_VECTORS_PER_DOCUMENT[table];
        if (!enough) continue;
        const waiting = refusedAt !== null && refusedCapKb === capKb && vectors < refusedAt * RETRY_CHANGE && vectors > refusedAt / RETRY_CHANGE;
        if (!waiting) due.push({ workspaceId, table, documents, vectors });
      }
      return due;
    },

    /** Notes a build that failed, so that `due` waits before offering it again and the admin index state shows it. */
    async refuse(workspaceId: string, table: VectorTable, { vectors, error }: { vectors: number; error: string }): Promise<void> {
      await db.$executeRaw`
        INSERT INTO workspace_vector_index_refusals (workspace_id, vector_table, vectors, memory_cap_kb, error, refused_at)
        VALUES (${workspaceId}, ${table}, ${vectors}, ${capKb}, ${error}, now())
        ON CONFLICT (workspace_id, vector_table) DO UPDATE
        SET vectors = excluded.vectors, memory_cap_kb = excluded.memory_cap_kb, error = excluded.error, refused_at = excluded.refused_at`;
    },

    /** The workspace's own indexes and the builds that failed, by table; a table missing is searched exactly. */
    async states(workspaceId: string): Promise<OwnIndexState[]> {
      const built = await db.$queryRaw<Array<{ table: VectorTable; documents: number; probes: number; at: Date }>>`
        SELECT vector_table AS "table", documents, probes, created_at AS at FROM workspace_vector_indexes WHERE workspace_id = ${workspaceId}`;
      const refused = await db.$queryRaw<Array<{ table: VectorTable; vectors: number; capKb: number; error: string; at: Date }>>`
        SELECT vector_table AS "table", vectors, memory_cap_kb AS "capKb", error, refused_at AS at
        FROM workspace_vector_index_refusals WHERE workspace_id = ${workspaceId}`;
      const builtTables = new Set(built.map((row) => row.table));
      return [
        ...built.map((row) => ({ state: "built" as const, ...row })),
        // An older index still answers while its rebuild is refused: the table is indexed.
        ...refused
          .filter((row) => !builtTables.has(row.table))
          .map(({ table, vectors, capKb, error, at }) => ({ table, state: "unbuildable" as const, vectors, memoryCapMb: Math.floor(capKb / 1024), error, at })),
      ];
    },

    /**
     * Builds (or rebuilds) a workspace's index on a table and lists it. Concurrently where the
     * database allows it, so that writes to the table go on meanwhile. A rebuild makes the new
     * index beside the old one and drops the old one only then: searches never fall back to the
     * exact scan. An index left invalid by a build that failed is dropped and built again.
     * The lists are as many as fit the memory a build may use there (pgvector's k-means sizes by
     * their square): fewer, longer lists when needed, which a search reads as many of (probesFor).
     */
    async create(
      workspaceId: string,
      table: VectorTable,
      { concurrently, documents }: { concurrently: boolean; documents: number },
    ): Promise<{ name: string; vectors: number; lists: number; memoryKb: number }> {
      const home = await indexHomeOf(db, workspaceId, table, options.buildSession);
      const name = home.nameOf(workspaceIndexName(workspaceId, table));
      const next = home.nameOf(`${workspaceIndexName(workspaceId, table)}_next`);
      const how = concurrently ? "CONCURRENTLY " : "";
      const rows = `workspace_id = ${literal(workspaceId)}${INDEXED_ROWS[table]}`;
      const [{ vectors }] = await db.$queryRawUnsafe<[{ vectors: number }]>(
        `SELECT count(*)::int AS vectors FROM "${table}" WHERE ${rows} AND embedding IS NOT NULL`,
      );
      // What the index holds, so that the rebuild is due when the workspace has doubled since: a
      // memory, pattern or learning is one vector, and one imported in bulk is not in the index
      // before it is embedded (an artifact's vectors come with it when it is validated).
      const built = table === "artifact_embeddings" ? documents : Math.min(documents, vectors);
      const wanted = Math.min(MAX_LISTS, Math.max(1, Math.ceil(vectors / VECTORS_PER_LIST)));
      const [{ dimensions }] = await db.$queryRawUnsafe<[{ dimensions: number }]>(
        `SELECT atttypmod AS dimensions FROM pg_attribute WHERE attrelid = '"${table}"'::regclass AND attname = 'embedding'`,
      );
      const { settingKb, raisable } = await home.buildMemory();
      const availableKb = raisable ? Math.max(capKb, settingKb) : settingKb;
      const lists = listsThatFit(wanted, dimensions, availableKb);
      if (lists === 0) throw new IndexBuildDoesNotFit(ivfflatBuildKb(1, dimensions), availableKb);
      const memoryKb = Math.max(settingKb, ivfflatBuildKb(lists, dimensions));
      const current = (await home.facts(name))?.valid;
      const target = current ? next : name;
      if ((await home.facts(target)) !== undefined) await home.run(`DROP INDEX ${how}IF EXISTS "${target}"`);
      await home.build(`CREATE INDEX ${how}"${target}" ON ${home.relation} USING ivfflat (embedding halfvec_cosine_ops) WITH (lists = ${lists}) WHERE ${rows}`, memoryKb);
      if (target === next) {
        await home.run(`DROP INDEX ${how}IF EXISTS "${name}"`);
        await home.run(`ALTER INDEX "${next}" RENAME TO "${name}"`);
      }
      try {
        await db.$executeRaw`
          INSERT INTO workspace_vector_indexes (workspace_id, vector_table, index_name, documents, probes, created_at)
          VALUES (${workspaceId}, ${table}, ${name}, ${built}, ${probesFor(lists)}, now())
          ON CONFLICT (workspace_id, vector_table) DO UPDATE SET documents = excluded.documents, probes = excluded.probes, created_at = excluded.created_at`;
      } catch (error) {
        // The workspace was deleted while its index was being built: the index must not outlive it.
        await home.run(`DROP INDEX ${how}IF EXISTS "${name}"`);
        throw error;
      }
      await db.$executeRaw`DELETE FROM workspace_vector_index_refusals WHERE workspace_id = ${workspaceId} AND vector_table = ${table}`;
      known.delete(workspaceId);
      return { name, vectors, lists, memoryKb };
    },
  };
}

export type VectorIndexRepository = ReturnType<typeof createVectorIndexRepository>;
