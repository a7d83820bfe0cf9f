import { ErrorSchema } from "../../contracts/common";
import { IndexStateSchema, WorkspaceIdParamsSchema } from "../../contracts/admin";
import { defineRoute } from "../../http/route";

export const indexStateRoute = defineRoute({
  method: "get",
  path: "/admin/v1/workspaces/{id}/index",
  operationId: "adminGetIndexState",
  summary: "Show a workspace's search index",
  description:
    "Per kind of row: vectors pending, failed (refused by the embeddings provider 3 times, with the last error), " +
    "embedded with the configured model, and skipped (empty text). `reindex` retries the failed rows.",
  tags: ["Search"],
  auth: { kind: "admin" },
  request: { params: WorkspaceIdParamsSchema },
  responses: {
    200: { description: "The index state.", schema: IndexStateSchema },
    404: { description: "No such workspace.", schema: ErrorSchema },
  },
  handle: async ({ params }, { services }) => {
    await services.workspaces.get(params.id);
    return { status: 200, body: await services.indexer.state(params.id) };
  },
});
