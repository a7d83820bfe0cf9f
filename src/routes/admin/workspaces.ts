import { restRoute } from "../../http/rest-route";
import { adminCreateWorkspace, adminUpdateWorkspace } from "../../operations/admin-workspaces";

export const createWorkspaceRoute = restRoute(adminCreateWorkspace, {
  method: "post",
  path: "/admin/v1/workspaces",
  tags: ["Workspaces"],
  body: "workspace",
  success: { status: 201, description: "The workspace." },
});

export const updateWorkspaceRoute = restRoute(adminUpdateWorkspace, {
  method: "patch",
  path: "/admin/v1/workspaces/{id}",
  tags: ["Workspaces"],
  body: "changes",
  success: { status: 200, description: "The workspace." },
});
