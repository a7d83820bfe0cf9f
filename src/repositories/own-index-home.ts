import type { Database, DbTx } from "../db/database";

/** What the catalog says of one index: whether it is valid (usable), and its IVFFlat lists. */
export interface IndexFacts {
  valid: boolean;
  lists: number | null;
}

/**
 * Where a workspace's own index on a table is built, and how statements about it run there:
 * - the table itself;
 * - on a table hash-partitioned by workspace (docs/deployment.md §6), the partition that holds the
 *   workspace: PostgreSQL builds no index concurrently on a partitioned table, and the other
 *   partitions hold none of its rows;
 * - on Citus, the shard that holds the workspace, on its worker: an index made on the distributed
 *   table would be built on every shard, each empty copy as large as the lists it holds (7 MB for
 *   800 lists, 227 MB over the 32 shards of the scale bench's 100,000-artifact workspace). Its
 *   name ends in the shard id, as Citus names a shard's indexes; a shard that moves to another
 *   node leaves it behind, and the upkeep builds it again there (`due`).
 */
export interface IndexHome {
  /** The relation a CREATE INDEX names, quoted. */
  relation: string;
  /** The name an index of this home has, from the workspace's index name. */
  nameOf(index: string): string;
  /** Runs one DDL statement there (it may be CONCURRENTLY: never inside a transaction). */
  run(statement: string): Promise<void>;
  /** The catalog's facts of an index there by its full name; undefined when it does not exist. */
  facts(index: string): Promise<IndexFacts | undefined>;
  /**
   * `maintenance_work_mem` there, in kB, and whether a build there can raise it for itself: on
   * Citus the statement runs on the worker in a connection of its own (`master_run_on_worker`),
   * where no setting of ours reaches, so a build there fits the worker's setting.
   */
  buildMemory(): Promise<{ settingKb: number; raisable: boolean }>;
  /** Runs a CREATE INDEX there with `maintenance_work_mem` raised to `memoryKb` for it where the home can. */
  build(statement: string, memoryKb: number): Promise<void>;
}

/** Opens a connection of its own for a build (Database.onOneConnection); without one, builds use the setting as it is. */
export type BuildSession = Database["onOneConnection"];

const MEMORY_SETTING = `SELECT setting FROM pg_settings WHERE name = 'maintenance_work_mem'`;

const FACTS = (index: string) => `
  SELECT i.indisvalid::text || ' ' || coalesce(substring(array_to_string(c.reloptions, ',') FROM 'lists=(\\d+)'), '') AS facts
  FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indexrelid = to_regclass('"${index.replace(/'/g, "''")}"')`;

function parseFacts(text: string | undefined | null): IndexFacts | undefined {
  if (!text) return undefined;
  const [valid, lists] = text.split(" ");
  return { valid: valid === "true", lists: lists ? Number(lists) : null };
}

/** A home on the node the service is connected to: the table or one of its partitions. */
function localHome(db: DbTx, relation: string, session: BuildSession | undefined): IndexHome {
  const run = async (statement: string) => {
    await db.$executeRawUnsafe(statement);
  };
  return {
    relation,
    nameOf: (index) => index,
    run,
    facts: async (index) => parseFacts((await db.$queryRawUnsafe<Array<{ facts: string }>>(FACTS(index)))[0]?.facts),
    buildMemory: async () => {
      const [row] = await db.$queryRawUnsafe<Array<{ setting: string }>>(MEMORY_SETTING);
      return { settingKb: Number(row?.setting), raisable: session !== undefined };
    },
    build: async (statement, memoryKb) => {
      if (!session) return run(statement);
      // A session setting, not SET LOCAL: CREATE INDEX CONCURRENTLY runs outside any transaction.
      // The connection is handed back as it was (on the embedded engine it is the only one).
      await session(async (connection) => {
        const [before] = await connection.query<{ setting: string }>("SELECT current_setting('maintenance_work_mem') AS setting");
        await connection.exec(`SET maintenance_work_mem = '${Math.ceil(memoryKb)}kB'`);
        try {
          await connection.exec(statement);
        } finally {
          await connection.query("SELECT set_config('maintenance_work_mem', $1, false)", [before!.setting]);
        }
      });
    },
  };
}

/** A Citus shard on its worker, reached through the coordinator (`master_run_on_worker`: one statement, on its own). */
function shardHome(db: DbTx, shard: { id: string; name: string; host: string; port: number }, session: BuildSession | undefined): IndexHome {
  const answerOf = (answer: { success: boolean; result: string } | undefined): string => {
    if (!answer?.success) throw new Error(`On the worker ${shard.host}:${shard.port} holding shard ${shard.name}: ${answer?.result ?? "no answer"}`);
    return answer.result;
  };
  const onWorker = async (statement: string): Promise<string> =>
    answerOf(
      (
        await db.$queryRaw<Array<{ success: boolean; result: string }>>`
          SELECT success, result FROM master_run_on_worker(ARRAY[${shard.host}]::text[], ARRAY[${shard.port}]::int[], ARRAY[${statement}]::text[], false)`
      )[0],
    );
  return {
    relation: shard.name, // shard_name() quotes it where needed
    nameOf: (index) => `${index}_${shard.id}`,
    run: async (statement) => {
      await onWorker(statement);
    },
    facts: async (index) => parseFacts(await onWorker(FACTS(index))),
    buildMemory: async () => ({ settingKb: Number(await onWorker(MEMORY_SETTING)), raisable: false }),
    build: async (statement) => {
      // One process, not a leader and parallel workers: the worker serves the other workspaces of
      // its node meanwhile (a workspace just isolated there, docs/performance.md run W2). No session
      // setting reaches the build's connection there, so the shard's own storage parameter says
      // it, for the build's time.
      await onWorker(`ALTER TABLE ${shard.name} SET (parallel_workers = 0)`);
      try {
        if (!session) return void (await onWorker(statement));
        // A session without the requests' statement timeout: the coordinator waits out the build.
        await session(async (connection) => {
          const [answer] = await connection.query<{ success: boolean; result: string }>(
            "SELECT success, result FROM master_run_on_worker(ARRAY[$1]::text[], ARRAY[$2]::int[], ARRAY[$3]::text[], false)",
            [shard.host, shard.port, statement],
          );
          answerOf(answer);
        });
      } finally {
        await onWorker(`ALTER TABLE ${shard.name} RESET (parallel_workers)`);
      }
    },
  };
}

/** Where `workspaceId`'s own index on `table` lives (IndexHome). */
export async function indexHomeOf(db: DbTx, workspaceId: string, table: string, session?: BuildSession): Promise<IndexHome> {
  const whole = `"${table}"`;
  const [kind] = await db.$queryRaw<Array<{ partitioned: boolean; citus: boolean }>>`
    SELECT relkind = 'p' AS partitioned,
           EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') AS citus
    FROM pg_class WHERE oid = to_regclass(${whole})`;
  if (kind?.citus) {
    const [placed] = await db.$queryRaw<Array<{ id: string; name: string; host: string; port: number }>>`
      SELECT s.shard::text AS id, shard_name(${whole}::regclass, s.shard) AS name, p.nodename AS host, p.nodeport AS port
      FROM (SELECT get_shard_id_for_distribution_column(${whole}::regclass, ${workspaceId}::text) AS shard) s
      JOIN pg_dist_shard_placement p ON p.shardid = s.shard
      WHERE EXISTS (SELECT 1 FROM pg_dist_partition d WHERE d.logicalrelid = ${whole}::regclass AND d.partmethod = 'h')`;
    if (placed) return shardHome(db, placed, session);
  }
  if (!kind?.partitioned) return localHome(db, whole, session);
  const [holder] = await db.$queryRawUnsafe<Array<{ partition: string }>>(
    `SELECT tableoid::regclass::text AS partition FROM ${whole} WHERE workspace_id = $1 LIMIT 1`,
    workspaceId,
  );
  return localHome(db, holder?.partition ?? whole, session);
}
