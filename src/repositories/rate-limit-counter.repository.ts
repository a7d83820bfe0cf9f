import type { DbTx } from "../db/database";

/** A key's count in its current window. */
export interface WindowCount {
  hits: number;
  resetAt: Date;
}

/** The shared rate-limit counters (`rate_limit_counters`), one row per key and window. */
export function createRateLimitCounterRepository(db: DbTx) {
  return {
    /** The key's count, if its window has not passed. */
    async current(key: string): Promise<WindowCount | undefined> {
      const rows = await db.$queryRaw<Array<{ hits: number; reset_at: Date }>>`
        SELECT "hits", "reset_at" FROM "rate_limit_counters" WHERE "key" = ${key} AND "reset_at" > now()`;
      return rows[0] ? { hits: rows[0].hits, resetAt: rows[0].reset_at } : undefined;
    },

    /** Adds hits to the key's count, starting a new window of `windowMs` when the old one has passed; the total. */
    async add(key: string, hits: number, windowMs: number): Promise<WindowCount> {
      const window = `${windowMs} milliseconds`;
      const [row] = await db.$queryRaw<Array<{ hits: number; reset_at: Date }>>`
        INSERT INTO "rate_limit_counters" AS c ("key", "hits", "reset_at")
        VALUES (${key}, ${hits}, now() + ${window}::interval)
        ON CONFLICT ("key") DO UPDATE SET
          "hits" = CASE WHEN c."reset_at" <= now() THEN ${hits} ELSE c."hits" + ${hits} END,
          "reset_at" = CASE WHEN c."reset_at" <= now() THEN now() + ${window}::interval ELSE c."reset_at" END
        RETURNING "hits", "reset_at"`;
      return { hits: row!.hits, resetAt: row!.reset_at };
    },

    /** Takes one hit back from the key's current window. */
    async takeBack(key: string): Promise<void> {
      await db.$executeRaw`
        UPDATE "rate_limit_counters" SET "hits" = greatest("hits" - 1, 0) WHERE "key" = ${key} AND "reset_at" > now()`;
    },

    async remove(key: string): Promise<void> {
      await db.$executeRaw`DELETE FROM "rate_limit_counters" WHERE "key" = ${key}`;
    },

    /** Deletes up to `limit` counters of windows that have passed; how many. */
    purgeExpired(limit: number): Promise<number> {
      return db.$executeRaw`
        DELETE FROM "rate_limit_counters" WHERE "key" IN (
          SELECT "key" FROM "rate_limit_counters" WHERE "reset_at" <= now() LIMIT ${limit})`;
    },
  };
}

export type RateLimitCounterRepository = ReturnType<typeof createRateLimitCounterRepository>;
