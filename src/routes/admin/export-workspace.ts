import { restRoute } from "../../http/rest-route";
import { adminExportWorkspace } from "../../operations/admin-export";

export const exportWorkspaceRoute = restRoute(adminExportWorkspace, {
  method: "get",
  path: "/admin/v1/workspaces/{id}/export",
  tags: ["Import"],
  success: { status: 200, description: "The import document of the workspace, written as it is read (no Content-Length)." },
});
