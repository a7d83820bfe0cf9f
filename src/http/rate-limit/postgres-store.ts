import type { ClientRateLimitInfo, Options, Store } from "express-rate-limit";
import type { DbTx } from "../../db/database";

interface CounterRow {
  hits: number;
  reset_at: Date;
}

/**
 * A fixed-window counter per key in `rate_limit_counters`, so every process on one database
 * counts against the same limit. One statement per request: the UPSERT starts a new window when
 * the old one has passed, otherwise adds the hit, and returns the count.
 */
export class PostgresRateLimitStore implements Store {
  readonly localKeys = false;
  private windowMs = 60_000;

  constructor(
    private readonly db: DbTx,
    readonly prefix: string,
  ) {}

  init(options: Options): void {
    this.windowMs = options.windowMs;
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const rows = await this.db.$queryRaw<CounterRow[]>`
      SELECT "hits", "reset_at" FROM "rate_limit_counters" WHERE "key" = ${this.prefix + key} AND "reset_at" > now()`;
    return rows[0] ? { totalHits: rows[0].hits, resetTime: rows[0].reset_at } : undefined;
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    const window = `${this.windowMs} milliseconds`;
    const [row] = await this.db.$queryRaw<CounterRow[]>`
      INSERT INTO "rate_limit_counters" AS c ("key", "hits", "reset_at")
      VALUES (${this.prefix + key}, 1, now() + ${window}::interval)
      ON CONFLICT ("key") DO UPDATE SET
        "hits" = CASE WHEN c."reset_at" <= now() THEN 1 ELSE c."hits" + 1 END,
        "reset_at" = CASE WHEN c."reset_at" <= now() THEN now() + ${window}::interval ELSE c."reset_at" END
      RETURNING "hits", "reset_at"`;
    return { totalHits: row!.hits, resetTime: row!.reset_at };
  }

  async decrement(key: string): Promise<void> {
    await this.db.$executeRaw`
      UPDATE "rate_limit_counters" SET "hits" = greatest("hits" - 1, 0) WHERE "key" = ${this.prefix + key} AND "reset_at" > now()`;
  }

  async resetKey(key: string): Promise<void> {
    await this.db.$executeRaw`DELETE FROM "rate_limit_counters" WHERE "key" = ${this.prefix + key}`;
  }
}

/** Deletes the counters of windows that have passed; housekeeping calls it. Returns how many. */
export async function deleteExpiredRateLimitCounters(db: DbTx, batchSize: number): Promise<number> {
  return db.$executeRaw`
    DELETE FROM "rate_limit_counters" WHERE "key" IN (
      SELECT "key" FROM "rate_limit_counters" WHERE "reset_at" <= now() LIMIT ${batchSize})`;
}
