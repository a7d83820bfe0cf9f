import type { ApiKeyPrincipal } from "../auth/principal";
import { DomainError, notFound } from "../domain/errors";
import type { Clock } from "../lib/clock";
import type { Logger } from "../lib/logger";
import { showInvisibleCharacters } from "../lib/visible-text";
import type { ClusterNodes } from "../db/cluster-nodes";
import { onBehalfOf } from "../db/workspace-scope";
import type { ConnectedAppRecord, ConnectedAppRepository } from "../repositories/connected-app.repository";
import type { WorkspaceRepository } from "../repositories/workspace.repository";
import { DEFAULT_API_KEY_CACHE_TTL_MS } from "./api-key-cache";
import type { OAuthStoreService } from "./oauth-store.service";

const LAST_USED_RESOLUTION_MS = 60_000;
const MAX_CACHED = 10_000;

export interface ConnectedAppServiceDeps {
  apps: ConnectedAppRepository;
  /** Refuses a workspace whose database node is away before its grant is read there. */
  nodes: Pick<ClusterNodes, "assertReachable">;
  workspaces: Pick<WorkspaceRepository, "findById">;
  store: Pick<OAuthStoreService, "revokeByGrantId" | "keepClient">;
  clock: Clock;
  logger: Logger;
  /** How long a looked-up grant is trusted: the same bound as an API key's (API_KEY_CACHE_TTL_MS). */
  cacheTtlMs?: number;
}

/**
 * Grants a console account approved for an OAuth client ("connected apps"). An access token
 * names its grant; the grant gives the same principal an API key gives (workspace + scopes), so
 * tools and services cannot tell the two apart.
 */
export function createConnectedAppService({ apps, nodes, workspaces, store, clock, logger, cacheTtlMs = DEFAULT_API_KEY_CACHE_TTL_MS }: ConnectedAppServiceDeps) {
  const cache = new Map<string, { principal: ApiKeyPrincipal; until: number }>();
  const lastWritten = new Map<string, number>();

  function recordUse(principal: ApiKeyPrincipal): void {
    const now = clock.now();
    const written = lastWritten.get(principal.keyId);
    if (written !== undefined && now.getTime() - written < LAST_USED_RESOLUTION_MS) return;
    if (lastWritten.size >= MAX_CACHED) lastWritten.clear();
    lastWritten.set(principal.keyId, now.getTime());
    apps.touchLastUsed(principal.workspaceId, principal.keyId, now).catch((error: unknown) => {
      logger.warn({ err: error, grantId: principal.keyId }, "could not record connected app use");
    });
  }

  return {
    /** Records an approval. A grant always names at least one scope: an empty list would mean all five. */
    async create(workspaceId: string, input: { id: string; reviewerId: string; grantedBy: string; clientId: string; clientName: string; redirectHost: string; scopes: string[] }): Promise<ConnectedAppRecord> {
      if (input.scopes.length === 0) throw new DomainError("invalid", "Choose at least one scope to grant");
      if (!(await workspaces.findById(workspaceId))) throw notFound(`Workspace ${workspaceId} not found`);
      const app = await apps.create(workspaceId, { ...input, scopes: [...new Set(input.scopes)] });
      await store.keepClient(input.clientId);
      return app;
    },

    async list(workspaceId: string): Promise<ConnectedAppRecord[]> {
      if (!(await workspaces.findById(workspaceId))) throw notFound(`Workspace ${workspaceId} not found`);
      // Names stored before invisible and text-direction characters were refused show them written out.
      return (await apps.listByWorkspace(workspaceId)).map((app) => ({ ...app, clientName: showInvisibleCharacters(app.clientName) }));
    },

    /** Revokes a grant of the workspace and deletes its tokens; a grant of another workspace is not found here. */
    async revoke(workspaceId: string, grantId: string): Promise<void> {
      const revoked = await apps.revoke(workspaceId, grantId, clock.now());
      if (!revoked) {
        if (!(await workspaces.findById(workspaceId))) throw notFound(`Workspace ${workspaceId} not found`);
        throw notFound(`Connected app ${grantId} not found`);
      }
      cache.delete(grantId);
      await store.revokeByGrantId(grantId);
    },

    /** Revokes every live grant an account approved in the workspace (its access there is gone). */
    async revokeGrantedBy(workspaceId: string, reviewerId: string): Promise<void> {
      for (const grantId of await apps.liveIdsGrantedBy(workspaceId, reviewerId)) {
        await apps.revoke(workspaceId, grantId, clock.now());
        cache.delete(grantId);
        await store.revokeByGrantId(grantId);
      }
    },

    /** Forgets every grant of a deleted workspace that this process still trusted. */
    forgetWorkspace(workspaceId: string): void {
      for (const [grantId, entry] of cache) if (entry.principal.workspaceId === workspaceId) cache.delete(grantId);
    },

    /**
     * Marks a grant revoked that the authorization server revoked itself (a refresh token or a code
     * used twice): its tokens are gone already; the listing should say so.
     */
    async revokedByServer(grantId: string): Promise<void> {
      cache.delete(grantId);
      const app = await apps.findById(grantId);
      if (app) await apps.revoke(app.workspaceId, grantId, clock.now());
    },

    /**
     * The principal of a live grant, or 401. A grant revoked through this process is refused at
     * once; one revoked through another process within the cache TTL, as for API keys.
     */
    async authenticate(grantId: string): Promise<ApiKeyPrincipal> {
      const cached = cache.get(grantId);
      if (cached && cached.until > clock.now().getTime()) {
        recordUse(cached.principal);
        return cached.principal;
      }
      const workspaceId = await apps.workspaceOfGrant(grantId);
      if (workspaceId !== null) await nodes.assertReachable(workspaceId);
      const app = workspaceId === null ? null : await onBehalfOf(workspaceId, () => apps.findInWorkspace(workspaceId, grantId));
      if (!app || app.revokedAt || app.scopes.length === 0) throw new DomainError("unauthenticated", "This access token's grant has been revoked");
      const principal: ApiKeyPrincipal = { keyId: app.id, keyName: app.clientName, workspaceId: app.workspaceId, scopes: app.scopes };
      if (cacheTtlMs > 0) {
        if (cache.size >= MAX_CACHED) cache.clear();
        cache.set(grantId, { principal, until: clock.now().getTime() + cacheTtlMs });
      }
      recordUse(principal);
      return principal;
    },
  };
}

export type ConnectedAppService = ReturnType<typeof createConnectedAppService>;

export type { ConnectedAppRecord };
