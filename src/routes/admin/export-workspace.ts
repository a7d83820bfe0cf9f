import { restRoute } from "../../http/rest-route";
import { adminExportWorkspace } from "../../operations/admin-export";

export const exportWorkspaceRoute = restRoute(adminExportWorkspace, {
  method: "get",
  path: "/admin/v1/workspaces/{id}/export",
  tags: ["Import"],
  success: { status: 200, description: "The import document of the workspace at one moment, sent once it is written in full, with its Content-Length." },
  // Known in advance, so that a client (curl, the CLI) reports an answer that ends early as an error.
  responseHeaders: (document) => ({ "Content-Length": String(document.bytes) }),
});
