import { workspaceIndexName, type VectorTable } from "../../src/repositories/vector-index.repository";
import { onServer } from "./postgres-server";

/**
 * Where a workspace's shard of a vector table lives on a Citus cluster (the coordinator at
 * `coordinatorUrl`), and the workspace's own index there with how often it was scanned (a worker
 * reports its statistics within seconds of going idle), or undefined when that shard has none.
 */
export async function ownIndexOnWorker(coordinatorUrl: string, workspaceId: string, table: VectorTable) {
  const { shard, host, port, database } = await onServer(coordinatorUrl, async (client) =>
    (
      await client.query<{ shard: string; host: string; port: number; database: string }>(
        `SELECT s.shard::text, p.nodename AS host, p.nodeport AS port, current_database() AS database
         FROM (SELECT get_shard_id_for_distribution_column($1, $2::text) AS shard) s JOIN pg_dist_shard_placement p ON p.shardid = s.shard`,
        [table, workspaceId],
      )
    ).rows[0]!,
  );
  const worker = new URL(coordinatorUrl);
  worker.hostname = host;
  worker.port = String(port);
  worker.pathname = `/${database}`;
  const index = await onServer(worker.toString(), async (client) => {
    // Citus hides the shards from a worker's catalog views unless asked.
    await client.query(`SET citus.show_shards_for_app_name_prefixes = '*'`);
    const { rows } = await client.query<{ name: string; scans: string }>(
      `SELECT indexrelname AS name, idx_scan::text AS scans FROM pg_stat_user_indexes WHERE relname = $1 AND indexrelname LIKE $2`,
      [`${table}_${shard}`, `${workspaceIndexName(workspaceId, table)}%`],
    );
    return rows[0] && { name: rows[0].name, scans: Number(rows[0].scans) };
  });
  return { node: { host, port }, shard, index };
}
