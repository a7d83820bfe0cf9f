import { restRoute } from "../../http/rest-route";
import { adminIsolateWorkspace } from "../../operations/admin-placement";

export const isolateWorkspaceRoute = restRoute(adminIsolateWorkspace, {
  method: "post",
  path: "/admin/v1/workspaces/{id}/isolate",
  tags: ["Workspaces"],
  body: "placement",
  bodyExample: { node: "10.0.0.3:5432" },
  success: { status: 200, description: "The workspace has a shard of its own on `node`." },
});
