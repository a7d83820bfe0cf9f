import { Client } from "pg";
import { bytes, table, thousands } from "./report";

// The bench's two databases on one server, and what they hold.

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh, empty database named `<the URL's database>_<suffix>` on the same server; its URL. */
export async function recreateDatabaseBeside(url: string, suffix: string): Promise<string> {
  const beside = new URL(url);
  const name = `${decodeURIComponent(beside.pathname.slice(1)) || "postgres"}_${suffix}`;
  await withClient(url, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  });
  beside.pathname = `/${encodeURIComponent(name)}`;
  return beside.toString();
}

export function serverVersions(url: string): Promise<{ postgres: string; pgvector: string }> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ postgres: string; pgvector: string }>(
      "SELECT current_setting('server_version') AS postgres, (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS pgvector",
    );
    return rows[0]!;
  });
}

/** How many rows of each kind the database holds. */
export function contentRow(url: string, label: string): Promise<string[]> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<Record<string, string>>(`SELECT
      (SELECT count(*) FROM workspaces) AS workspaces, (SELECT count(*) FROM artifacts) AS artifacts,
      (SELECT count(*) FROM artifact_embeddings) AS vectors, (SELECT count(*) FROM memories) AS memories,
      (SELECT count(*) FROM query_patterns) AS patterns`);
    const counts = rows[0]!;
    return [label, ...["workspaces", "artifacts", "vectors", "memories", "patterns"].map((key) => thousands(Number(counts[key])))];
  });
}

export const CONTENT_HEADERS = ["database", "workspaces", "artifacts", "artifact vectors", "memories", "query patterns"];

/** pg_total_relation_size of the searched tables, and artifact_embeddings' indexes (the largest first). */
export function relationSizes(url: string): Promise<string> {
  return withClient(url, async (client) => {
    const tables = await client.query<{ name: string; total: string; data: string }>(`
      SELECT relname AS name, pg_total_relation_size(oid) AS total, pg_relation_size(oid) AS data FROM pg_class
      WHERE relname IN ('artifacts', 'artifact_embeddings', 'memories', 'query_patterns') AND relkind = 'r' ORDER BY relname`);
    const indexes = await client.query<{ name: string; method: string; size: string }>(`
      SELECT i.relname AS name, am.amname AS method, pg_relation_size(i.oid) AS size
      FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_am am ON am.oid = i.relam
      WHERE x.indrelid = 'artifact_embeddings'::regclass ORDER BY pg_relation_size(i.oid) DESC, i.relname`);
    const shown = indexes.rows.slice(0, 12);
    const rest = indexes.rows.slice(12);
    const rows = [
      ...tables.rows.map((row) => [`${row.name} (total, with indexes and TOAST)`, "table", bytes(Number(row.total)), `table data ${bytes(Number(row.data))}`]),
      ...shown.map((row) => [`index ${row.name}`, row.method, bytes(Number(row.size)), ""]),
      ...(rest.length > 0 ? [[`${rest.length} more indexes of artifact_embeddings`, "", bytes(rest.reduce((sum, row) => sum + Number(row.size), 0)), ""]] : []),
    ];
    return table(["relation", "kind", "size", ""], rows);
  });
}

/**
 * What docs/deployment.md asks of an operator: index builds with room to work in memory (new
 * connections take it).
 */
export async function allowIndexBuildsMemory(url: string, amount = "1GB"): Promise<void> {
  await withClient(url, async (client) => {
    await client.query(`ALTER DATABASE "${decodeURIComponent(new URL(url).pathname.slice(1)) || "postgres"}" SET maintenance_work_mem = '${amount}'`);
  });
}
