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
    /**
     * The digest's row first, then the key's: a key never exists without the row authentication
     * finds it by. (Two statements: on Citus one of them is on a table on every node and the other
     * on the workspace's node; a digest left without its key, should the second fail, finds nothing.)
     */
    async create(
      workspaceId: string,
      data: { name: string; scopes: string[]; hash: string; start: string },
    ): Promise<ApiKeyRecord> {
      const id = newId("key");
      await db.apiKeyDigest.create({ data: { hash: data.hash, workspaceId, keyId: id }, select: { hash: true } });
      return db.apiKey.create({ data: { id, workspaceId, ...data }, select: KEY_FIELDS });
    },

    listByWorkspace(workspaceId: string): Promise<ApiKeyRecord[]> {
      return db.apiKey.findMany({ where: { workspaceId }, select: KEY_FIELDS, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
    },

    /**
     * The key and workspace a secret's digest names, before its workspace is known: api_key_digests
     * is on every node of a Citus cluster, so a node that is down refuses only the keys of the
     * workspaces it holds. 238 random bits per secret make two equal digests as unlikely as a
     * guessed secret.
     */
    ownerOfDigest(hash: string): Promise<{ workspaceId: string; keyId: string } | null> {
      return db.apiKeyDigest.findUnique({ where: { hash }, select: { workspaceId: true, keyId: true } });
    },

    /** The key a digest named, read where its workspace lives. */
    findByDigest(owner: { workspaceId: string; keyId: string }, hash: string): Promise<(ApiKeyRecord & { hash: string }) | null> {
      return db.apiKey.findFirst({ where: { workspaceId: owner.workspaceId, id: owner.keyId, hash }, select: { ...KEY_FIELDS, hash: true } });
    },

    /** The workspace of a key known by id alone (the admin API's deprecated revoke path), so that what follows can name it. */
    async workspaceOf(keyId: string): Promise<string | null> {
      const key = await db.apiKey.findFirst({ where: { id: keyId }, select: { workspaceId: true } });
      return key?.workspaceId ?? null;
    },

    /** Sets revokedAt once; revoking a revoked key keeps the first time. Null when the workspace has no such key. */
    async revoke(workspaceId: string, keyId: string, at: Date): Promise<ApiKeyRecord | null> {
      await db.apiKey.updateMany({ where: { workspaceId, id: keyId, revokedAt: null }, data: { revokedAt: at } });
      return db.apiKey.findUnique({ where: { workspaceId_id: { workspaceId, id: keyId } }, select: KEY_FIELDS });
    },

    /** Records use; the service calls it at most once a minute per key, and the filter keeps several processes from all writing. */
    async touchLastUsed(workspaceId: string, keyId: string, at: Date): Promise<void> {
      const aMinuteAgo = new Date(at.getTime() - 60_000);
      await db.apiKey.updateMany({
        where: { workspaceId, id: keyId, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: aMinuteAgo } }] },
        data: { lastUsedAt: at },
      });
    },
  };
}

export type ApiKeyRepository = ReturnType<typeof createApiKeyRepository>;
