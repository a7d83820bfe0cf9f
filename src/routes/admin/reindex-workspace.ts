import { ErrorSchema } from "../../contracts/common";
import { ReindexResultSchema, WorkspaceIdParamsSchema } from "../../contracts/admin";
import { defineRoute } from "../../http/route";

export const reindexWorkspaceRoute = defineRoute({
  method: "post",
  path: "/admin/v1/workspaces/{id}/reindex",
  operationId: "adminReindexWorkspace",
  summary: "Re-embed a workspace",
  description:
    "Marks every vector of the workspace pending, failed ones included, and embeds them again with the configured model (after a model change, or to retry rows the provider refused). " +
    "200 when all were embedded; 202 when the provider failed part-way, or a worker process indexes (INDEXER=worker), and the rest follows in the background.",
  tags: ["Search"],
  auth: { kind: "admin" },
  request: { params: WorkspaceIdParamsSchema },
  responses: {
    200: { description: "Every vector was embedded again.", schema: ReindexResultSchema },
    202: { description: "Vectors were cleared; the provider failed, so the background indexer finishes.", schema: ReindexResultSchema },
    404: { description: "No such workspace.", schema: ErrorSchema },
  },
  handle: async ({ params }, { services }) => {
    await services.workspaces.get(params.id);
    const result = await services.indexer.reindexWorkspace(params.id);
    return { status: result.pending ? 202 : 200, body: result };
  },
});
