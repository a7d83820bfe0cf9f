import type { DbTx } from "../db/database";
import { newId } from "../lib/ids";

export interface ApiKeyRecord {
  id: string;
  workspaceId: string;
  name: string;
  scopes: string[];
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

const KEY_FIELDS = {
  id: true,
  workspaceId: true,
  name: true,
  scopes: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
} as const;

export function createApiKeyRepository(db: DbTx) {
  return {
    create(
      workspaceId: string,
      data: { name: string; scopes: string[]; hash: string; start: string },
    ): Promise<ApiKeyRecord> {
      return db.apiKey.create({ data: { id: newId("key"), workspaceId, ...data }, select: KEY_FIELDS });
    },

    listByWorkspace(workspaceId: string): Promise<ApiKeyRecord[]> {
      return db.apiKey.findMany({ where: { workspaceId }, select: KEY_FIELDS, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
    },

    /** Looks a key up by the digest of its secret; the digest column is unique and indexed. */
    findByHash(hash: string): Promise<(ApiKeyRecord & { hash: string }) | null> {
      return db.apiKey.findUnique({ where: { hash }, select: { ...KEY_FIELDS, hash: true } });
    },

    /** Sets revokedAt once; revoking a revoked key keeps the first time. Null when no such key. */
    async revoke(keyId: string, at: Date): Promise<ApiKeyRecord | null> {
      await db.apiKey.updateMany({ where: { id: keyId, revokedAt: null }, data: { revokedAt: at } });
      return db.apiKey.findUnique({ where: { id: keyId }, select: KEY_FIELDS });
    },

    /** Records use; the service calls it at most once a minute per key, and the filter keeps several processes from all writing. */
    async touchLastUsed(keyId: string, at: Date): Promise<void> {
      const aMinuteAgo = new Date(at.getTime() - 60_000);
      await db.apiKey.updateMany({
        where: { id: keyId, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: aMinuteAgo } }] },
        data: { lastUsedAt: at },
      });
    },
  };
}

export type ApiKeyRepository = ReturnType<typeof createApiKeyRepository>;
