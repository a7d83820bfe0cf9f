import type { SqlExecutor } from "./migrations";
import { DISTRIBUTED_BY_ID, DISTRIBUTED_FUNCTIONS, placementOf, type Placement } from "./table-distribution";

/** A function's name as messages show it: `nearest_in_workspace_index()`. */
const functionName = (signature: string) => `${signature.slice(0, signature.indexOf("("))}()`;

/** Whether the database is a Citus coordinator: the `citus` extension is installed in it. */
export async function isCitus(db: SqlExecutor): Promise<boolean> {
  const [row] = await db.query<{ citus: boolean }>(`SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') AS citus`);
  return row?.citus === true;
}

interface TableState {
  name: string;
  /** What Citus holds of it: h = distributed by hash, n+t = reference, n+s = Citus local, null = a plain table. */
  partmethod: string | null;
  repmodel: string | null;
  column: string | null;
  colocatedWithWorkspaces: boolean;
}

async function readTables(db: SqlExecutor): Promise<TableState[]> {
  return db.query<TableState>(
    `SELECT c.relname::text AS name, p.partmethod::text AS partmethod, p.repmodel::text AS repmodel,
            CASE WHEN p.partmethod = 'h' THEN column_to_column_name(p.logicalrelid, p.partkey) END AS column,
            coalesce(p.colocationid = (SELECT w.colocationid FROM pg_dist_partition w WHERE w.logicalrelid = to_regclass('"${DISTRIBUTED_BY_ID}"')), false) AS "colocatedWithWorkspaces"
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     LEFT JOIN pg_dist_partition p ON p.logicalrelid = c.oid
     WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY c.relname`,
  );
}

function isPlaced(table: TableState, placement: Placement): boolean {
  switch (placement.kind) {
    case "local":
      return table.partmethod === null;
    case "reference":
      return table.partmethod === "n" && table.repmodel === "t";
    case "distributed":
      return table.partmethod === "h" && table.column === placement.column && (table.name === DISTRIBUTED_BY_ID || table.colocatedWithWorkspaces);
  }
}

/** What a Citus coordinator does not yet hold as docs/deployment.md §6 says; nothing elsewhere. */
export async function notYetDistributed(db: SqlExecutor): Promise<{ tables: Array<{ name: string; placement: Placement }>; functions: typeof DISTRIBUTED_FUNCTIONS }> {
  if (!(await isCitus(db))) return { tables: [], functions: [] };
  return { tables: await tablesToDistribute(db), functions: await functionsToDistribute(db) };
}

/** The names of notYetDistributed, tables first, as messages show them. */
export const namesOf = ({ tables, functions }: Awaited<ReturnType<typeof notYetDistributed>>) => [
  ...tables.map((table) => table.name),
  ...functions.map((f) => functionName(f.signature)),
];

/** The tables of the public schema that are not yet where docs/deployment.md §6 puts them, each with where that is (on Citus). */
async function tablesToDistribute(db: SqlExecutor): Promise<Array<{ name: string; placement: Placement }>> {
  return (await readTables(db))
    .map((table) => ({ table, placement: placementOf(table.name) }))
    .filter(({ table, placement }) => !isPlaced(table, placement))
    .map(({ table, placement }) => ({ name: table.name, placement }));
}

/** The functions of DISTRIBUTED_FUNCTIONS that Citus does not yet run by workspace (on Citus). */
async function functionsToDistribute(db: SqlExecutor): Promise<typeof DISTRIBUTED_FUNCTIONS> {
  const distributed = await db.query<{ signature: string }>(
    `SELECT f.signature FROM unnest($1::text[]) AS f(signature)
     JOIN pg_dist_object o ON o.classid = 'pg_proc'::regclass AND o.objid = to_regprocedure(f.signature)
     WHERE o.distribution_argument_index IS NOT NULL AND o.colocationid = (SELECT colocationid FROM pg_dist_partition WHERE logicalrelid = to_regclass('"${DISTRIBUTED_BY_ID}"'))`,
    [DISTRIBUTED_FUNCTIONS.map((f) => f.signature)],
  );
  const done = new Set(distributed.map((row) => row.signature));
  return DISTRIBUTED_FUNCTIONS.filter((f) => !done.has(f.signature));
}

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

/**
 * On a Citus coordinator, places every table of the public schema as docs/deployment.md §6 says:
 * the tables of one workspace's rows distributed by workspace_id and colocated with `workspaces`
 * (distributed by id), the shared ones as reference tables, the rest left on the coordinator.
 * Does nothing elsewhere, nor when every table is already placed; a table a later migration adds
 * is placed by the next run. Rows already in the tables move to the shards.
 *
 * Citus distributes no table while a foreign key ties it to a table that is not yet distributed
 * (in either direction), so the foreign keys of the tables being placed are dropped first and made
 * again, as they were, once every table is placed; Citus then creates them on each shard, where a
 * child and its parent are on one node. Their triggers likewise. Then the functions that read one
 * workspace's rows are distributed by the argument that names it (DISTRIBUTED_FUNCTIONS). One
 * transaction: a failure leaves the database as it was. Returns the tables and functions placed.
 */
export async function distributeTables(db: SqlExecutor): Promise<string[]> {
  const missing = await notYetDistributed(db);
  const { tables: todo, functions } = missing;
  if (todo.length === 0 && functions.length === 0) return [];
  const names = todo.map((table) => table.name);
  const foreignKeys = await db.query<{ table: string; name: string; definition: string }>(
    `SELECT t.relname::text AS table, k.conname::text AS name, pg_get_constraintdef(k.oid) AS definition
     FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
     JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE k.contype = 'f' AND n.nspname = 'public' AND (t.relname = ANY($1::text[]) OR p.relname = ANY($1::text[]))
     ORDER BY t.relname, k.conname`,
    [names],
  );
  // Made again once the rows are in the shards: Citus copies a table's rows into its shards with
  // their triggers in place, which would count every word again and write body chunks twice.
  const triggers = await db.query<{ table: string; name: string; definition: string }>(
    `SELECT c.relname::text AS table, g.tgname::text AS name, pg_get_triggerdef(g.oid) AS definition
     FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE NOT g.tgisinternal AND n.nspname = 'public' AND c.relname = ANY($1::text[])
     ORDER BY c.relname, g.tgname`,
    [names],
  );
  // Referenced tables first: reference tables, then workspaces, then what is colocated with it.
  const order = (placement: Placement, name: string) =>
    placement.kind === "reference" ? 0 : name === DISTRIBUTED_BY_ID ? 1 : placement.kind === "distributed" ? 2 : 3;
  const ordered = [...todo].sort((a, b) => order(a.placement, a.name) - order(b.placement, b.name) || a.name.localeCompare(b.name));

  await db.exec("BEGIN");
  try {
    // Creating shards of a table with rows in a transaction block needs one connection per node.
    await db.exec(`SET LOCAL citus.multi_shard_modify_mode TO 'sequential'`);
    // The word counts and body chunks are kept by triggers that write into colocated tables only
    // (migration `distributable_schema`): safe to carry to each shard, which Citus does only when asked.
    await db.exec(`SET LOCAL citus.enable_unsafe_triggers TO on`);
    for (const key of foreignKeys) await db.exec(`ALTER TABLE ${quote(key.table)} DROP CONSTRAINT ${quote(key.name)}`);
    for (const trigger of triggers) await db.exec(`DROP TRIGGER ${quote(trigger.name)} ON ${quote(trigger.table)}`);
    for (const { name, placement } of ordered) {
      if (placement.kind === "local") {
        await db.query(`SELECT undistribute_table($1)`, [name]);
        continue;
      }
      if (placement.kind === "reference") {
        await db.query(`SELECT create_reference_table($1)`, [quote(name)]);
      } else if (name === DISTRIBUTED_BY_ID) {
        await db.query(`SELECT create_distributed_table($1, $2)`, [quote(name), placement.column]);
      } else {
        await db.query(`SELECT create_distributed_table($1, $2, colocate_with => $3)`, [quote(name), placement.column, quote(DISTRIBUTED_BY_ID)]);
      }
      // The rows now live in the shards; the coordinator's copy of them is dead weight.
      await db.query(`SELECT truncate_local_data_after_distributing_table($1)`, [quote(name)]);
    }
    for (const key of foreignKeys) {
      await db.exec(`ALTER TABLE ${quote(key.table)} ADD CONSTRAINT ${quote(key.name)} ${key.definition}`);
    }
    for (const trigger of triggers) await db.exec(trigger.definition);
    for (const { signature, workspaceArgument } of functions) {
      await db.query(`SELECT create_distributed_function($1, $2, colocate_with => $3)`, [signature, workspaceArgument, quote(DISTRIBUTED_BY_ID)]);
    }
    await db.exec("COMMIT");
  } catch (error) {
    await db.exec("ROLLBACK");
    throw new Error(`Distributing the tables on Citus failed: ${(error as Error).message}`);
  }
  return namesOf(missing);
}
