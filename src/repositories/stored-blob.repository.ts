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

    /**
     * Deletes up to `limit` blobs written before `before` that no skill file points at; how many.
     * The blobs are read first and the skill files asked about them after: on a distributed
     * PostgreSQL (Citus) the blobs stay on the coordinator and the skill files are split by
     * workspace, which no statement joins. A blob is content-addressed and past its grace period,
     * so no import that began before this pass can still be about to point at it.
     */
    async purgeOrphans(before: Date, limit: number): Promise<number> {
      const orphans: string[] = [];
      // Pages of old blobs in key order until `limit` orphans are found or none is left: blobs in
      // use may fill a page.
      for (let after = ""; orphans.length < limit; ) {
        const page = await db.$queryRaw<Array<{ key: string }>>`
          SELECT "key" FROM "stored_blobs" WHERE "created_at" < ${before} AND "key" > ${after} ORDER BY "key" LIMIT ${limit}`;
        if (page.length === 0) break;
        const keys = page.map((row) => row.key);
        const used = await db.$queryRaw<Array<{ key: string }>>`
          SELECT DISTINCT "storage_key" AS "key" FROM "skill_files" WHERE "storage_key" = ANY(${keys}::text[])`;
        const inUse = new Set(used.map((row) => row.key));
        orphans.push(...keys.filter((key) => !inUse.has(key)).slice(0, limit - orphans.length));
        after = keys[keys.length - 1]!;
        if (page.length < limit) break;
      }
      if (orphans.length === 0) return 0;
      return db.$executeRaw`DELETE FROM "stored_blobs" WHERE "key" = ANY(${orphans}::text[]) AND "created_at" < ${before}`;
    },
  };
}

export type StoredBlobRepository = ReturnType<typeof createStoredBlobRepository>;
