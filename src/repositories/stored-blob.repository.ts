import type { DbTx } from "../db/database";

/** The blob table behind the `database` file storage. Keys carry the workspace id (see the storage). */
export function createStoredBlobRepository(db: DbTx) {
  return {
    /**
     * Writes the bytes under the key; writing the same key again replaces them and renews the
     * time, so housekeeping's grace period protects a blob an import is about to reference.
     */
    async put(key: string, data: Uint8Array): Promise<void> {
      const bytes = new Uint8Array(data);
      await db.storedBlob.upsert({ where: { key }, create: { key, data: bytes }, update: { data: bytes, createdAt: new Date() } });
    },

    async get(key: string): Promise<Uint8Array | null> {
      const row = await db.storedBlob.findUnique({ where: { key }, select: { data: true } });
      return row?.data ?? null;
    },

    async deleteMany(keys: string[]): Promise<void> {
      if (keys.length > 0) await db.storedBlob.deleteMany({ where: { key: { in: keys } } });
    },

    /** Deletes up to `limit` blobs written before `before` that no skill file points at; how many. */
    purgeOrphans(before: Date, limit: number): Promise<number> {
      return db.$executeRaw`
        DELETE FROM "stored_blobs" WHERE "key" IN (
          SELECT b."key" FROM "stored_blobs" b
          WHERE b."created_at" < ${before}
            AND NOT EXISTS (SELECT 1 FROM "skill_files" f WHERE f."storage_key" = b."key")
          LIMIT ${limit})`;
    },
  };
}

export type StoredBlobRepository = ReturnType<typeof createStoredBlobRepository>;
