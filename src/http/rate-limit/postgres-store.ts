import type { ClientRateLimitInfo, Options, Store } from "express-rate-limit";
import { isDatabaseUnavailable } from "../../db/database-errors";

/** The shared counters the store adds to (src/repositories/rate-limit-counter.repository.ts), one row per key and window. */
export interface SharedCounters {
  current(key: string): Promise<{ hits: number; resetAt: Date } | undefined>;
  add(key: string, hits: number, windowMs: number): Promise<{ hits: number; resetAt: Date }>;
  takeBack(key: string): Promise<void>;
  remove(key: string): Promise<void>;
}

/** What one process knows of a key's window. */
interface LocalCount {
  /** The window's total in the database at the last sync, this process's hits included. */
  synced: number;
  /** Hits this process counted since. */
  unsynced: number;
  resetTime: Date;
  syncedAt: number;
}

/**
 * How long a process answers a key from its own count before adding its hits to the database's.
 * Far from the limit, a key costs one statement a second per process, not one per request.
 */
export const SYNC_INTERVAL_MS = 1_000;
/**
 * From this share of the limit on, every hit is counted in the database at once, so the limit is
 * exact where it refuses: below it, the other processes' hits of the last second may be unknown.
 */
const EXACT_FROM_SHARE = 0.5;
const MAX_LOCAL_KEYS = 10_000;

/**
 * A fixed-window counter per key in the shared counters (`rate_limit_counters`), so every process on one database
 * counts against the same limit. Each process counts hits locally and adds them to the database's
 * counter (one UPSERT that starts a new window when the old one has passed and returns the total)
 * on a key's first hit of a window, once a second, and on every hit from half the limit on.
 * Counting every request in the database cost a statement per request on one hot row, which held
 * fetch-by-id at 32 connections to half its rate (docs/performance.md). Below half the limit, a
 * process may not yet know the last second of the other processes' hits; from half on, counts are
 * exact, so a key is refused at exactly its limit.
 *
 * While the database cannot be reached, each process limits a key by its own count, and adds the
 * hits it counted meanwhile at its first sync once the database is back: refusing every request
 * then would turn an outage of the counters into an outage of what does not need them (a key
 * whose look-up is kept, an MCP tool answering that its data cannot be reached).
 */
export class PostgresRateLimitStore implements Store {
  readonly localKeys = false;
  private windowMs = 60_000;
  private limit = Number.POSITIVE_INFINITY;
  private readonly counts = new Map<string, LocalCount>();

  constructor(
    private readonly counters: SharedCounters,
    readonly prefix: string,
  ) {}

  init(options: Options): void {
    this.windowMs = options.windowMs;
    if (typeof options.limit === "number") this.limit = options.limit;
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const local = this.current(key);
    if (local) return { totalHits: local.synced + local.unsynced, resetTime: local.resetTime };
    const stored = await this.counters.current(this.prefix + key);
    return stored ? { totalHits: stored.hits, resetTime: stored.resetAt } : undefined;
  }

  /** The count at once while this process's own count answers (no promise), else the database's after it is synced. */
  increment(key: string): ClientRateLimitInfo | Promise<ClientRateLimitInfo> {
    const local = this.current(key);
    if (!local) return this.sync(key, 1).catch((error: unknown) => this.countedWhileAway(key, 1, error));
    local.unsynced += 1;
    const estimate = local.synced + local.unsynced;
    if (estimate < this.limit * EXACT_FROM_SHARE && Date.now() - local.syncedAt < SYNC_INTERVAL_MS) {
      return { totalHits: estimate, resetTime: local.resetTime };
    }
    // Taken out before the statement, so that a concurrent sync does not add the same hits again.
    const hits = local.unsynced;
    local.unsynced = 0;
    local.syncedAt = Date.now();
    return this.sync(key, hits).catch((error: unknown) => this.countedWhileAway(key, hits, error));
  }

  async decrement(key: string): Promise<void> {
    const local = this.current(key);
    if (local && local.unsynced > 0) {
      local.unsynced -= 1;
      return;
    }
    if (local) local.synced = Math.max(0, local.synced - 1);
    await this.counters.takeBack(this.prefix + key);
  }

  async resetKey(key: string): Promise<void> {
    this.counts.delete(key);
    await this.counters.remove(this.prefix + key);
  }

  /** Adds hits of this process to the database's counter; the total from there, plus hits counted since. */
  private async sync(key: string, hits: number): Promise<ClientRateLimitInfo> {
    const { hits: total, resetAt: resetTime } = await this.counters.add(this.prefix + key, hits, this.windowMs);
    const local = this.counts.get(key);
    if (local && local.resetTime.getTime() === resetTime.getTime()) {
      // Concurrent syncs may answer out of order: the larger total is the later one.
      local.synced = Math.max(local.synced, total);
      return { totalHits: total + local.unsynced, resetTime };
    }
    if (this.counts.size >= MAX_LOCAL_KEYS) this.forgetPastWindows();
    this.counts.set(key, { synced: total, unsynced: 0, resetTime, syncedAt: Date.now() });
    return { totalHits: total, resetTime };
  }

  /**
   * Hits a sync could not add, kept to be added by the next one; the count as this process knows
   * it, if the database could not be reached (else the sync's error).
   */
  private countedWhileAway(key: string, hits: number, error: unknown): ClientRateLimitInfo {
    const local = this.current(key);
    if (local) local.unsynced += hits;
    if (!isDatabaseUnavailable(error)) throw error;
    if (local) return { totalHits: local.synced + local.unsynced, resetTime: local.resetTime };
    if (this.counts.size >= MAX_LOCAL_KEYS) this.forgetPastWindows();
    const resetTime = new Date(Date.now() + this.windowMs);
    this.counts.set(key, { synced: 0, unsynced: hits, resetTime, syncedAt: Date.now() });
    return { totalHits: hits, resetTime };
  }

  /** This process's count of the key's current window, if it has one. */
  private current(key: string): LocalCount | undefined {
    const local = this.counts.get(key);
    if (local && local.resetTime.getTime() <= Date.now()) {
      this.counts.delete(key);
      return undefined;
    }
    return local;
  }

  private forgetPastWindows(): void {
    const now = Date.now();
    for (const [key, local] of this.counts) if (local.resetTime.getTime() <= now) this.counts.delete(key);
    if (this.counts.size >= MAX_LOCAL_KEYS) this.counts.clear();
  }
}
