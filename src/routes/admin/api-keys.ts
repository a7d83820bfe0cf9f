import { restRoute } from "../../http/rest-route";
import { adminCreateApiKey, adminListApiKeys, adminRevokeApiKey, adminRevokeWorkspaceApiKey } from "../../operations/admin-keys";

export const createApiKeyRoute = restRoute(adminCreateApiKey, {
  method: "post",
  path: "/admin/v1/workspaces/{id}/keys",
  tags: ["API keys"],
  body: "apiKey",
  success: { status: 201, description: "The key, with its secret." },
});

export const listApiKeysRoute = restRoute(adminListApiKeys, {
  method: "get",
  path: "/admin/v1/workspaces/{id}/keys",
  tags: ["API keys"],
  success: { status: 200, description: "The keys, newest first." },
});

export const revokeWorkspaceApiKeyRoute = restRoute(adminRevokeWorkspaceApiKey, {
  method: "delete",
  path: "/admin/v1/workspaces/{workspaceId}/keys/{keyId}",
  tags: ["API keys"],
  success: { status: 204, description: "Revoked." },
});

export const revokeApiKeyRoute = restRoute(adminRevokeApiKey, {
  method: "delete",
  path: "/admin/v1/keys/{id}",
  tags: ["API keys"],
  success: { status: 204, description: "Revoked." },
  deprecatedFor: revokeWorkspaceApiKeyRoute,
});
