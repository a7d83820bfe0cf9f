import { Client } from "pg";
import { clusterNodes, createEmptyDatabase, dropDatabase } from "../../tests/support/postgres-server";
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

/**
 * A fresh, empty database named `<the URL's database>_<suffix>` on the same server; its URL. On a
 * Citus cluster, a database of the cluster (on every node, the workers registered), made as the
 * tests make theirs, and so is the big database (resetPostgres): both with the same collation.
 */
export async function recreateDatabaseBeside(url: string, suffix: string): Promise<string> {
  const beside = new URL(url);
  const name = `${decodeURIComponent(beside.pathname.slice(1)) || "postgres"}_${suffix}`;
  if (await clusterNodes(url)) {
    await dropDatabase(url, name);
    return createEmptyDatabase(url, name);
  }
  await withClient(url, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  });
  beside.pathname = `/${encodeURIComponent(name)}`;
  return beside.toString();
}

export function serverVersions(url: string): Promise<{ postgres: string; pgvector: string; citus: string | null; workers: number }> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ postgres: string; pgvector: string; citus: string | null }>(
      `SELECT current_setting('server_version') AS postgres, (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS pgvector,
              (SELECT extversion FROM pg_extension WHERE extname = 'citus') AS citus`,
    );
    const versions = rows[0]!;
    const workers = versions.citus ? Number((await client.query(`SELECT count(*) AS n FROM pg_dist_node WHERE groupid <> 0`)).rows[0].n) : 0;
    return { ...versions, workers };
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
export async function relationSizes(url: string): Promise<string> {
  if (await clusterNodes(url)) return citusRelationSizes(url);
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

/** On Citus: the searched tables' sizes over all their shards (indexes included). */
function citusRelationSizes(url: string): Promise<string> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ name: string; total: string; data: string }>(`
      SELECT relname AS name, citus_total_relation_size(oid) AS total, citus_table_size(oid) AS data FROM pg_class
      WHERE relname IN ('artifacts', 'artifact_embeddings', 'memories', 'query_patterns') AND relkind = 'r' ORDER BY relname`);
    return table(["relation (all shards)", "kind", "size", ""], rows.map((row) => [`${row.name} (total, with indexes and TOAST)`, "table", bytes(Number(row.total)), `table data ${bytes(Number(row.data))}`]));
  });
}

/** Where each workspace's shards live on a Citus cluster ("node: workspaces"), or undefined on one server. */
export async function shardPlacements(url: string, workspaces: Array<{ id: string; name: string }>): Promise<string | undefined> {
  if (!(await clusterNodes(url))) return undefined;
  return withClient(url, async (client) => {
    const rows: string[][] = [];
    const byNode = new Map<string, string[]>();
    for (const workspace of workspaces) {
      const { rows: found } = await client.query<{ node: string }>(
        `SELECT p.nodename || ':' || p.nodeport AS node FROM pg_dist_shard_placement p
         WHERE p.shardid = get_shard_id_for_distribution_column('workspaces', $1::text)`,
        [workspace.id],
      );
      const node = found[0]?.node ?? "?";
      byNode.set(node, [...(byNode.get(node) ?? []), workspace.name]);
    }
    for (const [node, names] of [...byNode].sort()) {
      rows.push([node, thousands(names.length), names.filter((name) => !/^small /.test(name)).join(", ") || "—"]);
    }
    return table(["node", "workspaces", "those not of the 1,000-artifact hundred"], rows);
  });
}
