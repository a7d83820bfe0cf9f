-- Workspaces given a shard and a node of their own on Citus (`npm run admin -- workspace:isolate`,
-- POST /admin/v1/workspaces/{id}/isolate): which node each one was moved to, by Citus's node id,
-- which a node keeps when its address changes (citus_update_node). Kept on the coordinator (a
-- local table: src/db/table-distribution.ts), where Citus's rebalancer reads it through
-- wsi_shard_allowed_on_node below. Elsewhere it stays empty.
CREATE TABLE "isolated_workspaces" (
    "workspace_id" TEXT NOT NULL,
    "node_id" INTEGER NOT NULL,
    "isolated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "isolated_workspaces_pkey" PRIMARY KEY ("workspace_id")
);

-- The rebalance strategy's rule (citus_add_rebalance_strategy's shard_allowed_on_node_function):
-- the shard of an isolated workspace may be only on its node, and no other shard may be there,
-- so that a later rebalance leaves the workspace where it was put and gives it the node alone.
-- PL/pgSQL, so that it is created where Citus's catalog does not exist (it is never called there).
CREATE FUNCTION "wsi_shard_allowed_on_node"(shard BIGINT, node INTEGER) RETURNS BOOLEAN
LANGUAGE plpgsql STABLE AS $$
DECLARE
  relation REGCLASS;
  home INTEGER;
BEGIN
  SELECT logicalrelid INTO relation FROM pg_dist_shard WHERE shardid = shard;
  IF relation IS NULL THEN
    RETURN TRUE;
  END IF;
  SELECT i.node_id INTO home FROM isolated_workspaces i
  WHERE get_shard_id_for_distribution_column(relation, i.workspace_id) = shard
  LIMIT 1;
  IF home IS NOT NULL THEN
    RETURN node = home;
  END IF;
  RETURN NOT EXISTS (SELECT 1 FROM isolated_workspaces i WHERE i.node_id = node);
END
$$;
