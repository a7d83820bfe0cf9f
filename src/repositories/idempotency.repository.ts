import type { DbTx } from "../db/database";
import type { Prisma } from "../generated/prisma/client";
import { newId } from "../lib/ids";

export interface IdempotencyRecord {
  requestHash: string;
  responseStatus: number;
  responseBody: Prisma.JsonValue;
}

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

    async insert(
      workspaceId: string,
      record: IdempotencyRecord & { apiKeyId: string; idempotencyKey: string; createdAt: Date },
    ): Promise<void> {
      await db.idempotencyRecord.create({
        data: { id: newId("idem"), workspaceId, ...record, responseBody: record.responseBody as Prisma.InputJsonValue },
      });
    },
  };
}

export type IdempotencyRepository = ReturnType<typeof createIdempotencyRepository>;
