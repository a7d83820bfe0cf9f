import { IsolateWorkspaceRequestSchema, WorkspaceIdParamsSchema, WorkspaceIsolationSchema } from "../contracts/admin";
import { NO_SUCH_WORKSPACE } from "./admin-workspaces";
import { defineOperation } from "./operation";

export const adminIsolateWorkspace = defineOperation({
  name: "adminIsolateWorkspace",
  summary: "Give a workspace a shard and a node of its own (Citus)",
  description:
    "On a Citus cluster: splits the workspace's rows into shards of their own (every table's, colocated), moves them to `node` if one is named, and keeps them there: the cluster's default rebalance strategy becomes one that leaves an isolated workspace on its node and moves every other shard off that node. The workspace's own vector indexes are then built where it landed. The workspace and every other one stay in use meanwhile (Citus copies by logical replication and blocks writes to the moving shards only for the switch-over). The request lasts as long as the copy: minutes for a large workspace. See docs/deployment.md §6, \"A large workspace on a node of its own\".",
  access: { kind: "admin" },
  input: WorkspaceIdParamsSchema.extend({ placement: IsolateWorkspaceRequestSchema }),
  output: WorkspaceIsolationSchema,
  run: ({ id, placement }, { services }) => services.workspacePlacement.isolate(id, { node: placement.node }),
  errors: {
    not_found: NO_SUCH_WORKSPACE,
    invalid: { description: "`node` names no worker of the cluster.", example: "node: no worker 10.0.0.9:5432 holds shards in this cluster; its workers are 10.0.0.2:5432, 10.0.0.3:5432" },
    conflict: {
      description: "The database is not a Citus cluster, or Citus could not split or move the shard now (another move under way).",
      example: "This database is not a Citus cluster: every workspace is on its one server already",
    },
  },
});
