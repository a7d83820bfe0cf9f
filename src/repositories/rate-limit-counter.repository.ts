import type { DbTx } from "../db/database";

/** The shared rate-limit counters (`rate_limit_counters`), one row per key and window. */
export function createRateLimitCounterRepository(db: DbTx) {
  return {
    /** Deletes up to `limit` counters of windows that have passed; how many. */
    purgeExpired(limit: number): Promise<number> {
      return db.$executeRaw`
        DELETE FROM "rate_limit_counters" WHERE "key" IN (
          SELECT "key" FROM "rate_limit_counters" WHERE "reset_at" <= now() LIMIT ${limit})`;
    },
  };
}

export type RateLimitCounterRepository = ReturnType<typeof createRateLimitCounterRepository>;
