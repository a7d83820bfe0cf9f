import { displayStart, generateApiKeySecret, hashApiKeySecret, constantTimeEqual } from "../auth/api-key-secret";
import type { ApiKeyPrincipal } from "../auth/principal";
import { DomainError, notFound } from "../domain/errors";
import type { Clock } from "../lib/clock";
import type { Logger } from "../lib/logger";
import type { ApiKeyRecord, ApiKeyRepository } from "../repositories/api-key.repository";
import type { WorkspaceRepository } from "../repositories/workspace.repository";
import { ApiKeyCache, DEFAULT_API_KEY_CACHE_TTL_MS } from "./api-key-cache";

/** lastUsedAt is written at most this often per key and process: reads must not each turn into a write. */
const LAST_USED_RESOLUTION_MS = 60_000;

export interface ApiKeyServiceDeps {
  apiKeys: ApiKeyRepository;
  workspaces: Pick<WorkspaceRepository, "findById">;
  clock: Clock;
  logger: Logger;
  /** How long a looked-up key is trusted without asking the database again (0: always ask). */
  cacheTtlMs?: number;
}

export function createApiKeyService({ apiKeys, workspaces, clock, logger, cacheTtlMs = DEFAULT_API_KEY_CACHE_TTL_MS }: ApiKeyServiceDeps) {
  const cache = new ApiKeyCache(cacheTtlMs, () => clock.now().getTime());
  const lastWritten = new Map<string, number>();

  function recordUse({ workspaceId, keyId }: ApiKeyPrincipal): void {
    const now = clock.now();
    const written = lastWritten.get(keyId);
    if (written !== undefined && now.getTime() - written < LAST_USED_RESOLUTION_MS) return;
    if (lastWritten.size >= 10_000) lastWritten.clear();
    lastWritten.set(keyId, now.getTime());
    apiKeys.touchLastUsed(workspaceId, keyId, now).catch((error: unknown) => {
      logger.warn({ err: error, keyId }, "could not record API key use");
    });
  }

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

    /**
     * Revokes a key of the workspace. The admin API names the key alone: its workspace is looked
     * up first, so that the write names it (docs/deployment.md §6).
     */
    async revoke(keyId: string, workspaceId?: string): Promise<void> {
      const owner = workspaceId ?? (await apiKeys.workspaceOf(keyId));
      const revoked = owner === null ? null : await apiKeys.revoke(owner, keyId, clock.now());
      cache.forgetKey(keyId);
      if (!revoked) throw notFound(`API key ${keyId} not found`);
    },

    /**
     * The principal behind a secret, or 401. A key revoked through this process is refused at
     * once; one revoked through another process within the cache TTL.
     */
    async authenticate(secret: string): Promise<ApiKeyPrincipal> {
      const hash = hashApiKeySecret(secret);
      const cached = cache.get(hash);
      if (cached) {
        recordUse(cached);
        return cached;
      }
      const record = await apiKeys.findByHash(hash);
      if (!record || !constantTimeEqual(record.hash, hash)) throw new DomainError("unauthenticated", "Invalid API key");
      if (record.revokedAt) throw new DomainError("unauthenticated", "This API key has been revoked");
      const principal = { keyId: record.id, keyName: record.name, workspaceId: record.workspaceId, scopes: record.scopes };
      cache.set(hash, principal);
      recordUse(principal);
      return principal;
    },
  };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;

/** The records this service answers with, for adapters, which never import a repository. */
export type { ApiKeyRecord };
