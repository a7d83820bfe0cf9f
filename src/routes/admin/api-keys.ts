import { ErrorSchema } from "../../contracts/common";
import {
  ApiKeyListSchema,
  CreateApiKeyRequestSchema,
  CreatedApiKeySchema,
  KeyIdParamsSchema,
  WorkspaceIdParamsSchema,
} from "../../contracts/admin";
import { defineRoute } from "../../http/route";
import { toApiKey } from "./to-wire";

export const createApiKeyRoute = defineRoute({
  method: "post",
  path: "/admin/v1/workspaces/{id}/keys",
  operationId: "adminCreateApiKey",
  summary: "Create an API key",
  description: "The response carries the secret once; only its SHA-256 digest is stored.",
  tags: ["API keys"],
  auth: { kind: "admin" },
  request: { params: WorkspaceIdParamsSchema, body: CreateApiKeyRequestSchema },
  responses: {
    201: { description: "The key, with its secret.", schema: CreatedApiKeySchema },
    404: { description: "No such workspace.", schema: ErrorSchema },
  },
  handle: async ({ params, body }, { services }) => {
    const created = await services.apiKeys.create(params.id, body);
    return { status: 201, body: { ...toApiKey(created), key: created.key } };
  },
});

export const listApiKeysRoute = defineRoute({
  method: "get",
  path: "/admin/v1/workspaces/{id}/keys",
  operationId: "adminListApiKeys",
  summary: "List a workspace's API keys",
  description: "Never returns a secret.",
  tags: ["API keys"],
  auth: { kind: "admin" },
  request: { params: WorkspaceIdParamsSchema },
  responses: {
    200: { description: "The keys, newest first.", schema: ApiKeyListSchema },
    404: { description: "No such workspace.", schema: ErrorSchema },
  },
  handle: async ({ params }, { services }) => ({
    status: 200,
    body: { items: (await services.apiKeys.list(params.id)).map(toApiKey) },
  }),
});

export const revokeApiKeyRoute = defineRoute({
  method: "delete",
  path: "/admin/v1/keys/{id}",
  operationId: "adminRevokeApiKey",
  summary: "Revoke an API key",
  description: "The key answers 401 from the next request on. Revoking twice is harmless.",
  tags: ["API keys"],
  auth: { kind: "admin" },
  request: { params: KeyIdParamsSchema },
  responses: {
    204: { description: "Revoked." },
    404: { description: "No such key.", schema: ErrorSchema },
  },
  handle: async ({ params }, { services }) => {
    await services.apiKeys.revoke(params.id);
    return { status: 204 };
  },
});
