import type { ApiKeyPrincipal } from "../auth/principal";

/** How long a process trusts a key it has looked up, unless configured: a revoke elsewhere takes effect within it. */
export const DEFAULT_API_KEY_CACHE_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

/**
 * Principals of recently used keys, by the digest of their secret, so that a request does not
 * need a database round trip to authenticate. Only valid keys are kept (an unknown secret is
 * never cached, so guessing cannot fill it). A revoke in this process drops the key at once.
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, { principal: ApiKeyPrincipal; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  get(hash: string): ApiKeyPrincipal | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (entry.until > this.now()) return entry.principal;
    this.entries.delete(hash);
    return undefined;
  }

  set(hash: string, principal: ApiKeyPrincipal): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(hash, { principal, until: this.now() + this.ttlMs });
  }

  forgetWorkspace(workspaceId: string): void {
    for (const [hash, entry] of this.entries) if (entry.principal.workspaceId === workspaceId) this.entries.delete(hash);
  }

  forgetKey(keyId: string): void {
    for (const [hash, entry] of this.entries) if (entry.principal.keyId === keyId) this.entries.delete(hash);
  }
}
