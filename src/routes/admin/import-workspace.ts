import { restRoute } from "../../http/rest-route";
import { adminImportWorkspace } from "../../operations/admin-import";

export const importWorkspaceRoute = restRoute(adminImportWorkspace, {
  method: "post",
  path: "/admin/v1/workspaces/{id}/import",
  tags: ["Import"],
  body: "document",
  success: { status: 200, description: "What was imported, and the new artifacts' ids in input order." },
});
