import type { DbTx } from "../db/database";
import type { Prisma } from "../generated/prisma/client";

export interface IdempotencyRecord {
  requestHash: string;
  responseStatus: number;
  responseBody: Prisma.JsonValue;
}

/** Stored outcomes of pushes under an Idempotency-Key; a push writes its record with the artifact (artifact-push.repository.ts). */
export function createIdempotencyRepository(db: DbTx) {
  return {
    /** The stored outcome of a key's request under this idempotency key, if made after `since`. */
    find(workspaceId: string, apiKeyId: string, idempotencyKey: string, since: Date): Promise<IdempotencyRecord | null> {
      return db.idempotencyRecord.findFirst({
        where: { workspaceId, apiKeyId, idempotencyKey, createdAt: { gte: since } },
        select: { requestHash: true, responseStatus: true, responseBody: true },
      });
    },

    /** Frees an idempotency key whose record has expired, so it can be used again. */
    async deleteExpired(workspaceId: string, apiKeyId: string, idempotencyKey: string, before: Date): Promise<void> {
      await db.idempotencyRecord.deleteMany({ where: { workspaceId, apiKeyId, idempotencyKey, createdAt: { lt: before } } });
    },

    /**
     * Deletes up to `limit` records created before `before`, in every workspace; how many. Expiry
     * runs across workspaces: the rows are picked first, then deleted by id with the same
     * condition, in statements a distributed PostgreSQL (Citus) runs on every node (one statement
     * cannot both limit and delete there).
     */
    async purgeExpired(before: Date, limit: number): Promise<number> {
      const picked = await db.$queryRaw<Array<{ id: string }>>`
        SELECT "id" FROM "idempotency_records" WHERE "created_at" < ${before} LIMIT ${limit}`;
      if (picked.length === 0) return 0;
      return db.$executeRaw`
        DELETE FROM "idempotency_records" WHERE "id" = ANY(${picked.map((row) => row.id)}::text[]) AND "created_at" < ${before}`;
    },
  };
}

export type IdempotencyRepository = ReturnType<typeof createIdempotencyRepository>;
