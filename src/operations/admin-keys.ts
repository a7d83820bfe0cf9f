import { ApiKeyListSchema, CreateApiKeyRequestSchema, CreatedApiKeySchema, KeyIdParamsSchema, WorkspaceIdParamsSchema } from "../contracts/admin";
import { toApiKey } from "./admin-wire";
import { NO_SUCH_WORKSPACE } from "./admin-workspaces";
import { defineOperation, NO_CONTENT } from "./operation";

export const adminCreateApiKey = defineOperation({
  name: "adminCreateApiKey",
  summary: "Create an API key",
  description: "The response carries the secret once; only its SHA-256 digest is stored.",
  access: { kind: "admin" },
  input: WorkspaceIdParamsSchema.extend({ apiKey: CreateApiKeyRequestSchema }),
  output: CreatedApiKeySchema,
  run: ({ id, apiKey }, { services }) => services.apiKeys.create(id, apiKey),
  toWire: (created) => ({ ...toApiKey(created), key: created.key }),
  errors: { not_found: NO_SUCH_WORKSPACE },
});

export const adminListApiKeys = defineOperation({
  name: "adminListApiKeys",
  summary: "List a workspace's API keys",
  description: "Never returns a secret.",
  access: { kind: "admin" },
  input: WorkspaceIdParamsSchema,
  output: ApiKeyListSchema,
  run: ({ id }, { services }) => services.apiKeys.list(id),
  toWire: (keys) => ({ items: keys.map(toApiKey) }),
  errors: { not_found: NO_SUCH_WORKSPACE },
});

export const adminRevokeApiKey = defineOperation({
  name: "adminRevokeApiKey",
  summary: "Revoke an API key",
  description: "The key answers 401 from the next request on. Revoking twice is harmless.",
  access: { kind: "admin" },
  input: KeyIdParamsSchema,
  output: NO_CONTENT,
  run: ({ id }, { services }) => services.apiKeys.revoke(id),
  toWire: () => undefined,
  errors: { not_found: { description: "No such key." } },
});
