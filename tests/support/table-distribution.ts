import type { SqlExecutor } from "../../src/db/migrations";
import { distributionColumnOf, NOT_PER_WORKSPACE } from "../../src/db/table-distribution";

export { NOT_PER_WORKSPACE };

interface Table {
  name: string;
  column: string | null;
  notNull: boolean | null;
}

interface UniqueIndex {
  table: string;
  index: string;
  primary: boolean;
  columns: string[];
}

interface ForeignKey {
  table: string;
  name: string;
  parent: string;
  columns: string[];
  referenced: string[];
}

/** Column names of an attribute-number array of `relation`, in order. */
const attributeNames = (numbers: string, relation: string) =>
  `ARRAY(SELECT a.attname::text FROM unnest(${numbers}) WITH ORDINALITY AS n(attnum, ord)
         JOIN pg_attribute a ON a.attrelid = ${relation} AND a.attnum = n.attnum ORDER BY n.ord)`;

export async function readCatalog(db: SqlExecutor) {
  const publicTables = `SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')`;
  const tables = await db.query<{ name: string; workspaceId: boolean | null; id: boolean | null }>(
    `SELECT c.relname::text AS name,
            (SELECT a.attnotnull FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'workspace_id' AND NOT a.attisdropped) AS "workspaceId",
            (SELECT a.attnotnull FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'id' AND NOT a.attisdropped) AS id
     FROM pg_class c WHERE c.oid IN (${publicTables}) ORDER BY c.relname`,
  );
  // Key columns only (not INCLUDE ones); an expression counts as no column.
  const uniques = await db.query<UniqueIndex>(
    `SELECT t.relname::text AS table, i.relname::text AS index, x.indisprimary AS primary,
            ${attributeNames("(x.indkey::int2[])[0:x.indnkeyatts - 1]", "x.indrelid")} AS columns
     FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
     WHERE x.indisunique AND x.indrelid IN (${publicTables}) ORDER BY t.relname, i.relname`,
  );
  const foreignKeys = await db.query<ForeignKey>(
    `SELECT t.relname::text AS table, k.conname::text AS name, p.relname::text AS parent,
            ${attributeNames("k.conkey", "k.conrelid")} AS columns, ${attributeNames("k.confkey", "k.confrelid")} AS referenced
     FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
     WHERE k.contype = 'f' AND k.conrelid IN (${publicTables}) ORDER BY t.relname, k.conname`,
  );
  return {
    tables: tables.map((row): Table => {
      const notNull = distributionColumnOf(row.name) === "id" ? row.id : row.workspaceId;
      return { name: row.name, column: notNull === null ? null : distributionColumnOf(row.name), notNull };
    }),
    uniques,
    foreignKeys,
  };
}

/**
 * What keeps the database from being split by workspace, read from the catalog: a table of
 * workspace rows without a NOT NULL workspace_id, a primary or unique key without it, a foreign
 * key between two such tables that does not pair the workspaces, or one from a shared table to
 * a table of workspace rows.
 */
export async function distributionProblems(db: SqlExecutor): Promise<string[]> {
  const { tables, uniques, foreignKeys } = await readCatalog(db);
  const distributed = new Set(tables.filter((table) => !(table.name in NOT_PER_WORKSPACE)).map((table) => table.name));
  const problems: string[] = [];
  for (const table of tables.filter((t) => distributed.has(t.name))) {
    if (!table.column) problems.push(`${table.name}: no ${distributionColumnOf(table.name)} column`);
    else if (!table.notNull) problems.push(`${table.name}: ${table.column} may be NULL`);
  }
  for (const unique of uniques.filter((u) => distributed.has(u.table))) {
    if (!unique.columns.includes(distributionColumnOf(unique.table))) {
      problems.push(`${unique.table}: ${unique.primary ? "primary key" : "unique index"} ${unique.index} (${unique.columns.join(", ")}) lacks ${distributionColumnOf(unique.table)}`);
    }
  }
  for (const key of foreignKeys) {
    if (!distributed.has(key.parent)) continue;
    if (!distributed.has(key.table)) {
      problems.push(`${key.table}: foreign key ${key.name} refers from a shared table to ${key.parent}, whose rows are one workspace's`);
      continue;
    }
    const at = key.columns.indexOf(distributionColumnOf(key.table));
    if (at < 0 || key.referenced[at] !== distributionColumnOf(key.parent)) {
      problems.push(`${key.table}: foreign key ${key.name} (${key.columns.join(", ")}) does not pair ${distributionColumnOf(key.table)} with ${key.parent}.${distributionColumnOf(key.parent)}`);
    }
  }
  return problems;
}
