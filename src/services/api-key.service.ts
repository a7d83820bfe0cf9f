import { displayStart, generateApiKeySecret, hashApiKeySecret, constantTimeEqual } from "../auth/api-key-secret";
import type { ApiKeyPrincipal } from "../auth/principal";
import { ApiError, notFound } from "../http/api-error";
import type { Clock } from "../lib/clock";
import type { Logger } from "../lib/logger";
import type { ApiKeyRecord, ApiKeyRepository } from "../repositories/api-key.repository";
import type { WorkspaceRepository } from "../repositories/workspace.repository";

export interface ApiKeyServiceDeps {
  apiKeys: ApiKeyRepository;
  workspaces: Pick<WorkspaceRepository, "findById">;
  clock: Clock;
  logger: Logger;
}

export function createApiKeyService({ apiKeys, workspaces, clock, logger }: ApiKeyServiceDeps) {
  return {
    /** Creates a key and returns its secret, which exists nowhere else from then on. */
    async create(workspaceId: string, input: { name: string; scopes?: string[] }): Promise<ApiKeyRecord & { key: string }> {
      if (!(await workspaces.findById(workspaceId))) throw notFound(`Workspace ${workspaceId} not found`);
      const key = generateApiKeySecret();
      const record = await apiKeys.create(workspaceId, {
        name: input.name,
        scopes: [...new Set(input.scopes ?? [])],
        hash: hashApiKeySecret(key),
        start: displayStart(key),
      });
      return { ...record, key };
    },

    async list(workspaceId: string): Promise<ApiKeyRecord[]> {
      if (!(await workspaces.findById(workspaceId))) throw notFound(`Workspace ${workspaceId} not found`);
      return apiKeys.listByWorkspace(workspaceId);
    },

    async revoke(keyId: string): Promise<void> {
      const revoked = await apiKeys.revoke(keyId, clock.now());
      if (!revoked) throw notFound(`API key ${keyId} not found`);
    },

    /** The principal behind a secret, or 401. A revoked key is refused from the moment it is revoked. */
    async authenticate(secret: string): Promise<ApiKeyPrincipal> {
      const hash = hashApiKeySecret(secret);
      const record = await apiKeys.findByHash(hash);
      if (!record || !constantTimeEqual(record.hash, hash)) throw new ApiError("unauthorized", "Invalid API key");
      if (record.revokedAt) throw new ApiError("unauthorized", "This API key has been revoked");
      apiKeys.touchLastUsed(record.id, clock.now()).catch((error: unknown) => {
        logger.warn({ err: error, keyId: record.id }, "could not record API key use");
      });
      return { keyId: record.id, keyName: record.name, workspaceId: record.workspaceId, scopes: record.scopes };
    },
  };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
