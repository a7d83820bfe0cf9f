import { isDatabaseUnavailable } from "../db/database-errors";
import { conflict, invalid, notFound } from "../domain/errors";
import type { BuiltIndex } from "../indexing/vector-index-maintenance";
import type { Logger } from "../lib/logger";
import type { VectorIndexRepository } from "../repositories/vector-index.repository";
import type { ClusterNode, WorkspacePlacementRepository } from "../repositories/workspace-placement.repository";
import type { WorkspaceRepository } from "../repositories/workspace.repository";

export interface WorkspaceIsolation {
  workspaceId: string;
  node: string;
  shardId: string;
  isolated: true;
  alreadyIsolated: boolean;
  moved: boolean;
  /** The workspace's own vector indexes built where it now is, by table. */
  ownIndexesBuilt: string[];
  tookMs: number;
}

const nameOf = (node: ClusterNode) => `${node.host}:${node.port}`;

/**
 * Gives a large workspace a shard of its own and, if asked, moves it to a named worker, while it
 * and every other workspace are in use (Citus's tenant isolation and shard move, by logical
 * replication); then keeps it there through later rebalances and builds its own vector indexes
 * where it landed (an index on one shard does not move with it). docs/deployment.md §6.
 */
export function createWorkspacePlacementService(deps: {
  placement: WorkspacePlacementRepository;
  workspaces: Pick<WorkspaceRepository, "findById">;
  vectorIndexes: Pick<VectorIndexRepository, "forget">;
  /** Builds the workspace's own vector indexes that are due (VectorIndexMaintenance.buildFor). */
  buildOwnIndexes: (workspaceId: string) => Promise<BuiltIndex[]>;
  logger: Logger;
}) {
  const { placement, logger } = deps;

  // Citus refuses a split or move it cannot do now (another one under way, a lock held): the
  // operator's to retry, with Citus's own words. A node away stays the 503 it is.
  async function shardOperation<T>(what: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isDatabaseUnavailable(error)) throw error;
      const detail = error instanceof Error ? error.message : String(error);
      throw conflict(`Citus could not ${what}: ${detail}`);
    }
  }

  return {
    async isolate(workspaceId: string, options: { node?: string } = {}): Promise<WorkspaceIsolation> {
      if (!(await deps.workspaces.findById(workspaceId))) throw notFound(`Workspace ${workspaceId} not found`);
      if (!(await placement.isCitus())) throw conflict("This database is not a Citus cluster: every workspace is on its one server already");
      const workers = await placement.workers();
      const target = options.node === undefined ? undefined : workers.find((worker) => nameOf(worker) === options.node);
      if (options.node !== undefined && !target) {
        throw invalid(`node: no worker ${options.node} holds shards in this cluster; its workers are ${workers.map(nameOf).join(", ")}`);
      }
      const started = performance.now();
      const shard = await placement.shardOf(workspaceId);
      const alreadyIsolated = shard.alone;
      const to = target ?? shard.node;
      const moved = to.id !== shard.node.id;
      if (!alreadyIsolated) {
        await shardOperation(`give the workspace a shard of its own on ${nameOf(to)}`, () => placement.isolate(workspaceId, shard, to));
      } else if (moved) {
        await shardOperation(`move the workspace's shard to ${nameOf(to)}`, () => placement.move(shard.shardId, shard.node, to));
      }
      const placed = await placement.shardOf(workspaceId);
      await shardOperation("keep the workspace on its node in later rebalances", () => placement.pin(workspaceId, to));
      deps.vectorIndexes.forget(workspaceId);
      const built = (await deps.buildOwnIndexes(workspaceId)).map((index) => index.table);
      const tookMs = Math.round(performance.now() - started);
      logger.info({ workspaceId, node: nameOf(to), shardId: placed.shardId, alreadyIsolated, moved, ownIndexesBuilt: built, tookMs }, "workspace isolated on a node of its own");
      return { workspaceId, node: nameOf(to), shardId: placed.shardId, isolated: true, alreadyIsolated, moved, ownIndexesBuilt: built, tookMs };
    },
  };
}

export type WorkspacePlacementService = ReturnType<typeof createWorkspacePlacementService>;
