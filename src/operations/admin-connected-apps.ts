import { ConnectedAppListSchema, WorkspaceConnectedAppParamsSchema, WorkspaceIdParamsSchema } from "../contracts/admin";
import { toConnectedApp } from "./admin-wire";
import { NO_SUCH_WORKSPACE } from "./admin-workspaces";
import { defineOperation, NO_CONTENT } from "./operation";

export const adminListConnectedApps = defineOperation({
  name: "adminListConnectedApps",
  summary: "List a workspace's connected apps",
  description: "OAuth grants a console account approved for an MCP connector (docs/mcp.md), newest first. Never returns a token.",
  access: { kind: "admin" },
  input: WorkspaceIdParamsSchema,
  output: ConnectedAppListSchema,
  run: ({ id }, { services }) => services.connectedApps.list(id),
  toWire: (apps) => ({ items: apps.map(toConnectedApp) }),
  errors: { not_found: NO_SUCH_WORKSPACE },
});

export const adminRevokeConnectedApp = defineOperation({
  name: "adminRevokeConnectedApp",
  summary: "Revoke a connected app",
  description:
    "Deletes the grant's tokens: its access tokens answer 401 from the next request on, on every process, and its refresh token is refused. Revoking twice is harmless. A grant of another workspace is not found here.",
  access: { kind: "admin" },
  input: WorkspaceConnectedAppParamsSchema,
  output: NO_CONTENT,
  run: ({ workspaceId, appId }, { services }) => services.connectedApps.revoke(workspaceId, appId),
  errors: {
    not_found: { description: "No such connected app in this workspace, or no such workspace.", example: "Connected app 9f3kQ2 not found" },
  },
});
