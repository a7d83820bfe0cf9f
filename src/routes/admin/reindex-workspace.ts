import { restRoute } from "../../http/rest-route";
import { adminReindexWorkspace } from "../../operations/admin-search";

export const reindexWorkspaceRoute = restRoute(adminReindexWorkspace, {
  method: "post",
  path: "/admin/v1/workspaces/{id}/reindex",
  tags: ["Search"],
  success: { status: 200, description: "Every vector was embedded again." },
  accepted: { description: "Vectors were cleared; the provider failed, so the background indexer finishes.", when: (result) => result.pending },
});
