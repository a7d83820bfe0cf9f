import { IndexStateSchema, ReindexResultSchema, WorkspaceIdParamsSchema } from "../contracts/admin";
import { NO_SUCH_WORKSPACE } from "./admin-workspaces";
import { defineOperation } from "./operation";

export const adminReindexWorkspace = defineOperation({
  name: "adminReindexWorkspace",
  summary: "Re-embed a workspace",
  description:
    "Marks every vector of the workspace pending, failed ones included, and embeds them again with the configured model (after a model change, or to retry rows the provider refused). " +
    "200 when all were embedded; 202 when the provider failed part-way, or a worker process indexes (INDEXER=worker), and the rest follows in the background.",
  access: { kind: "admin" },
  input: WorkspaceIdParamsSchema,
  output: ReindexResultSchema,
  run: async ({ id }, { services }) => {
    await services.workspaces.get(id);
    return services.indexer.reindexWorkspace(id);
  },
  errors: { not_found: NO_SUCH_WORKSPACE },
});

export const adminGetIndexState = defineOperation({
  name: "adminGetIndexState",
  summary: "Show a workspace's search index",
  description:
    "Per kind of row: vectors pending, failed (refused by the embeddings provider 3 times, with the last error), " +
    "embedded with the configured model, and skipped (empty text). `reindex` retries the failed rows. " +
    "`ownIndexes`: per kind, whether the workspace is searched through a vector index of its own, and a build of one that failed.",
  access: { kind: "admin" },
  input: WorkspaceIdParamsSchema,
  output: IndexStateSchema,
  run: async ({ id }, { services }) => {
    await services.workspaces.get(id);
    return { ...(await services.indexer.state(id)), ownIndexes: await services.ownIndexStates(id) };
  },
  errors: { not_found: NO_SUCH_WORKSPACE },
});
