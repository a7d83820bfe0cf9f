import type { DbTx } from "../db/database";
import type { SqlExecutor } from "../db/migrations";

/** A Citus worker as the cluster names it. */
export interface ClusterNode {
  id: number;
  host: string;
  port: number;
}

export interface WorkspaceShard {
  shardId: string;
  /** The shard holds this workspace alone (its hash range is one value). */
  alone: boolean;
  node: ClusterNode;
}

// The strategy Citus's rebalancer follows once a workspace has a node of its own: by shard count,
// as Citus's default, with the rule of migration `isolated_workspaces`.
export const ISOLATING_STRATEGY = "by_shard_count_isolating_workspaces";

// Citus copies each co-located table's shard, and then builds its indexes, over as many
// connections at once as `citus.max_adaptive_executor_pool_size` allows (16 by default): on nodes
// that serve other workspaces meanwhile that is every core. One at a time, the copy took no longer
// on two cores and the other workspaces' search p95 went from 1.9× to 1.4× of before
// (docs/performance.md, run W2).
const ONE_TABLE_AT_A_TIME = "SET citus.max_adaptive_executor_pool_size = 1";

const SHARD = `
  SELECT s.shardid::text AS "shardId", s.shardminvalue = s.shardmaxvalue AS alone, n.nodeid AS id, n.nodename AS host, n.nodeport AS port
  FROM pg_dist_shard s
  JOIN pg_dist_placement p ON p.shardid = s.shardid
  JOIN pg_dist_node n ON n.groupid = p.groupid
  WHERE s.shardid = get_shard_id_for_distribution_column('workspaces', $1::text)`;

/**
 * Where a workspace's rows live on a Citus cluster, and what moves them (docs/deployment.md §6,
 * "A large workspace on a node of its own"). The shard operations run on a session of their own
 * without the requests' statement timeout (`session`): they copy the workspace's rows, which takes
 * as long as its size.
 */
export function createWorkspacePlacementRepository(db: DbTx, session: <T>(work: (sql: SqlExecutor) => Promise<T>) => Promise<T>) {
  return {
    async isCitus(): Promise<boolean> {
      const [row] = await db.$queryRaw<Array<{ citus: boolean }>>`SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') AS citus`;
      return row?.citus === true;
    },

    /** The workers that can hold shards. */
    async workers(): Promise<ClusterNode[]> {
      return db.$queryRaw<ClusterNode[]>`
        SELECT nodeid AS id, nodename AS host, nodeport AS port FROM pg_dist_node
        WHERE groupid > 0 AND isactive AND noderole = 'primary' AND shouldhaveshards ORDER BY nodeid`;
    },

    async shardOf(workspaceId: string): Promise<WorkspaceShard> {
      const [row] = await db.$queryRawUnsafe<Array<{ shardId: string; alone: boolean; id: number; host: string; port: number }>>(SHARD, workspaceId);
      if (!row) throw new Error(`no shard of workspaces holds ${workspaceId}`);
      return { shardId: row.shardId, alone: row.alone, node: { id: row.id, host: row.host, port: row.port } };
    },

    /**
     * Splits the workspace's rows out of `shard` into shards of their own, every colocated table's
     * with them, and places those on `to`, by logical replication where Citus can. One copy:
     * `isolate_tenant_to_new_shard` places the new shard where the old one was, and a move to
     * another node would then copy the workspace a second time and build its indexes twice. The
     * split points are the ones that function computes: the hash of the workspace's id, and the
     * value below it, unless it is at an end of the shard's range.
     */
    async isolate(workspaceId: string, shard: WorkspaceShard, to: ClusterNode): Promise<void> {
      const [range] = await db.$queryRaw<Array<{ hash: number; min: number; max: number }>>`
        SELECT worker_hash(${workspaceId}::text) AS hash, shardminvalue::int AS min, shardmaxvalue::int AS max
        FROM pg_dist_shard WHERE shardid = ${shard.shardId}::bigint`;
      if (!range) throw new Error(`shard ${shard.shardId} is not in the cluster's metadata`);
      const { hash, min, max } = range;
      const from = shard.node.id;
      const [points, nodes] =
        hash === min ? [[hash], [to.id, from]] : hash === max ? [[hash - 1], [from, to.id]] : [[hash - 1, hash], [from, to.id, from]];
      await session(async (sql) => {
        await sql.exec(ONE_TABLE_AT_A_TIME);
        await sql.query("SELECT citus_split_shard_by_split_points($1::bigint, $2::text[], $3::int[], shard_transfer_mode => 'auto')", [
          shard.shardId,
          points.map(String),
          nodes,
        ]);
      });
    },

    /** Moves a shard and its colocated ones to `to`, writes going on meanwhile (logical replication). */
    async move(shardId: string, from: ClusterNode, to: ClusterNode): Promise<void> {
      await session(async (sql) => {
        await sql.exec(ONE_TABLE_AT_A_TIME);
        await sql.query("SELECT citus_move_shard_placement($1::bigint, $2, $3, $4, $5, shard_transfer_mode => 'auto')", [shardId, from.host, from.port, to.host, to.port]);
      });
    },

    /** Keeps the workspace on its node and that node for it alone, in every later rebalance: the strategy is made the default. */
    async pin(workspaceId: string, node: ClusterNode): Promise<void> {
      await db.isolatedWorkspace.upsert({ where: { workspaceId }, create: { workspaceId, nodeId: node.id }, update: { nodeId: node.id, isolatedAt: new Date() } });
      await session(async (sql) => {
        await sql.query(
          `SELECT citus_add_rebalance_strategy($1, 'citus_shard_cost_1', 'citus_node_capacity_1', 'wsi_shard_allowed_on_node', 0)
           WHERE NOT EXISTS (SELECT 1 FROM pg_dist_rebalance_strategy WHERE name = $1)`,
          [ISOLATING_STRATEGY],
        );
        await sql.query("SELECT citus_set_default_rebalance_strategy($1)", [ISOLATING_STRATEGY]);
      });
    },
  };
}

export type WorkspacePlacementRepository = ReturnType<typeof createWorkspacePlacementRepository>;
