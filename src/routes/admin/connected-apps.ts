import { restRoute } from "../../http/rest-route";
import { adminListConnectedApps, adminRevokeConnectedApp } from "../../operations/admin-connected-apps";

export const listConnectedAppsRoute = restRoute(adminListConnectedApps, {
  method: "get",
  path: "/admin/v1/workspaces/{id}/connected-apps",
  tags: ["API keys"],
  success: { status: 200, description: "The connected apps, newest first." },
});

export const revokeConnectedAppRoute = restRoute(adminRevokeConnectedApp, {
  method: "delete",
  path: "/admin/v1/workspaces/{workspaceId}/connected-apps/{appId}",
  tags: ["API keys"],
  success: { status: 204, description: "Revoked." },
});
