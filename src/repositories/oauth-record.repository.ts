import type { DbTx } from "../db/database";
import type { Prisma } from "../generated/prisma/client";

export interface OAuthRecordRow {
  payload: Record<string, unknown>;
  expiresAt: Date | null;
  consumedAt: Date | null;
}

const ROW_FIELDS = { payload: true, expiresAt: true, consumedAt: true } as const;

/** The authorization server's records, by kind and key (the key is already a digest where the id is a secret). */
export function createOAuthRecordRepository(db: DbTx) {
  const live = (now: Date) => ({ OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] });
  return {
    async upsert(kind: string, key: string, data: { payload: Record<string, unknown>; grantId?: string; uid?: string; expiresAt?: Date }): Promise<void> {
      const row = {
        payload: data.payload as Prisma.InputJsonValue,
        grantId: data.grantId ?? null,
        uid: data.uid ?? null,
        expiresAt: data.expiresAt ?? null,
      };
      await db.oAuthRecord.upsert({ where: { kind_key: { kind, key } }, create: { kind, key, ...row }, update: row });
    },

    async find(kind: string, key: string, now: Date): Promise<OAuthRecordRow | null> {
      const row = await db.oAuthRecord.findFirst({ where: { kind, key, ...live(now) }, select: ROW_FIELDS });
      return row as OAuthRecordRow | null;
    },

    async findByUid(kind: string, uid: string, now: Date): Promise<OAuthRecordRow | null> {
      const row = await db.oAuthRecord.findFirst({ where: { kind, uid, ...live(now) }, select: ROW_FIELDS });
      return row as OAuthRecordRow | null;
    },

    async consume(kind: string, key: string, at: Date): Promise<void> {
      await db.oAuthRecord.updateMany({ where: { kind, key }, data: { consumedAt: at } });
    },

    async clearExpiry(kind: string, key: string): Promise<void> {
      await db.oAuthRecord.updateMany({ where: { kind, key }, data: { expiresAt: null } });
    },

    async destroy(kind: string, key: string): Promise<void> {
      await db.oAuthRecord.deleteMany({ where: { kind, key } });
    },

    /** Every record of a grant, whatever its kind: its codes, tokens and the grant itself. */
    async destroyByGrant(grantId: string): Promise<void> {
      await db.oAuthRecord.deleteMany({ where: { grantId } });
    },

    countLive(kind: string, now: Date): Promise<number> {
      return db.oAuthRecord.count({ where: { kind, ...live(now) } });
    },

    purgeExpired(now: Date, limit: number): Promise<number> {
      return db.$executeRaw`
        DELETE FROM "oauth_records" WHERE ("kind", "key") IN (
          SELECT "kind", "key" FROM "oauth_records" WHERE "expires_at" <= ${now} LIMIT ${limit})`;
    },
  };
}

export type OAuthRecordRepository = ReturnType<typeof createOAuthRecordRepository>;
