import {
  ApiKeyListSchema,
  CreateApiKeyRequestSchema,
  CreatedApiKeySchema,
  KeyIdParamsSchema,
  WorkspaceIdParamsSchema,
  WorkspaceKeyParamsSchema,
} from "../contracts/admin";
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

export const adminRevokeWorkspaceApiKey = defineOperation({
  name: "adminRevokeWorkspaceApiKey",
  summary: "Revoke an API key",
  description:
    "The key answers 401 from the next request on. Revoking twice is harmless. A key of another workspace is not found here, exactly as an unknown key.",
  access: { kind: "admin" },
  input: WorkspaceKeyParamsSchema,
  output: NO_CONTENT,
  run: ({ workspaceId, keyId }, { services }) => services.apiKeys.revoke(workspaceId, keyId),
  errors: {
    not_found: { description: "No such key in this workspace, or no such workspace.", example: "API key key_3Jd8Qw2NcT5vR9bLx1Mz7h not found" },
  },
});

/** The older path, which names the key alone: it finds the key's workspace, then revokes there. */
export const adminRevokeApiKey = defineOperation({
  name: "adminRevokeApiKey",
  summary: "Revoke an API key",
  description: "Names no workspace: the key's is looked up first. The key answers 401 from the next request on. Revoking twice is harmless.",
  access: { kind: "admin" },
  input: KeyIdParamsSchema,
  output: NO_CONTENT,
  run: async ({ id }, ctx) => adminRevokeWorkspaceApiKey.run({ workspaceId: await ctx.services.apiKeys.workspaceOf(id), keyId: id }, ctx),
  errors: { not_found: { description: "No such key." } },
});
