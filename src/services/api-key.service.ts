import { displayStart, generateApiKeySecret, hashApiKeySecret, constantTimeEqual } from "../auth/api-key-secret";
import type { ApiKeyPrincipal } from "../auth/principal";
import { DomainError, notFound } from "../domain/errors";
import type { Clock } from "../lib/clock";
import type { Logger } from "../lib/logger";
import type { ClusterNodes } from "../db/cluster-nodes";
import { onBehalfOf } from "../db/workspace-scope";
import type { ApiKeyRecord, ApiKeyRepository } from "../repositories/api-key.repository";
import type { WorkspaceRepository } from "../repositories/workspace.repository";
import { ApiKeyCache, DEFAULT_API_KEY_CACHE_TTL_MS } from "./api-key-cache";

/** lastUsedAt is written at most this often per key and process: reads must not each turn into a write. */
const LAST_USED_RESOLUTION_MS = 60_000;

export interface ApiKeyServiceDeps {
  apiKeys: ApiKeyRepository;
  /** Refuses a workspace whose database node is away before its key is read there (the first look-up of a key). */
  nodes: Pick<ClusterNodes, "assertReachable">;
  workspaces: Pick<WorkspaceRepository, "findById">;
  clock: Clock;
  logger: Logger;
  /** How long a looked-up key is trusted without asking the database again (0: always ask). */
  cacheTtlMs?: number;
}

export function createApiKeyService({ apiKeys, nodes, workspaces, clock, logger, cacheTtlMs = DEFAULT_API_KEY_CACHE_TTL_MS }: ApiKeyServiceDeps) {
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
     * Revokes a key of the workspace; the write names it (docs/deployment.md §6), so a key of
     * another workspace is not found there, exactly as an unknown one.
     */
    async revoke(workspaceId: string, keyId: string): Promise<void> {
      const revoked = await apiKeys.revoke(workspaceId, keyId, clock.now());
      if (!revoked) {
        if (!(await workspaces.findById(workspaceId))) throw notFound(`Workspace ${workspaceId} not found`);
        throw notFound(`API key ${keyId} not found`);
      }
      cache.forgetKey(keyId);
    },

    /** Forgets every key of a deleted workspace that this process still trusted. */
    forgetWorkspace(workspaceId: string): void {
      cache.forgetWorkspace(workspaceId);
    },

    /** The workspace of a key named by id alone, for the admin API's deprecated path that names no workspace. */
    async workspaceOf(keyId: string): Promise<string> {
      const owner = await apiKeys.workspaceOf(keyId);
      if (owner === null) throw notFound(`API key ${keyId} not found`);
      return owner;
    },

    /**
     * The principal behind a secret, or 401. A key revoked through this process is refused at
     * once; one revoked through another process within the cache TTL.
     */
    async authenticate(secret: string): Promise<ApiKeyPrincipal> {
      const hash = hashApiKeySecret(secret);
      const cached = cache.get(hash);
      // A known key needs no node: the request's own statements are refused if its node is away
      // (session-pool.ts), so that an MCP tool answers a tool error rather than the transport a 503.
      if (cached) {
        recordUse(cached);
        return cached;
      }
      const owner = await apiKeys.ownerOfDigest(hash);
      if (!owner) throw new DomainError("unauthenticated", "Invalid API key");
      await nodes.assertReachable(owner.workspaceId);
      const record = await onBehalfOf(owner.workspaceId, () => apiKeys.findByDigest(owner, hash));
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
