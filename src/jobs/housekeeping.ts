import { setImmediate as yieldToRequests } from "node:timers/promises";
import type { DbTx } from "../db/database";
import type { Clock } from "../lib/clock";
import type { Logger } from "../lib/logger";
import { createIdempotencyRepository } from "../repositories/idempotency.repository";
import { createPlannerStatisticsRepository, SEARCHED_TABLES } from "../repositories/planner-statistics.repository";
import { createOAuthRecordRepository } from "../repositories/oauth-record.repository";
import { createRateLimitCounterRepository } from "../repositories/rate-limit-counter.repository";
import { createReviewerRepository } from "../repositories/reviewer.repository";
import { createStoredBlobRepository } from "../repositories/stored-blob.repository";
import { IDEMPOTENCY_WINDOW_MS } from "../services/artifact.service";
import { THROTTLE } from "../services/sign-in-throttle";
import { periodicPass } from "../lib/periodic-pass";

/** An imported blob is referenced only when its import commits: younger ones are never orphans yet. */
const ORPHAN_GRACE_MS = 60 * 60 * 1000;

export interface HousekeepingOptions {
  db: DbTx;
  clock: Clock;
  logger: Logger;
  intervalMs?: number;
  batchSize?: number;
  /**
   * Also ANALYZE the searched tables each pass: the embedded engine has no autovacuum, and without
   * statistics the planner takes every workspace for one row and picks scans that cost search 2–3×.
   */
  refreshPlannerStatistics?: boolean;
}

export interface Housekeeping {
  start(): void;
  /** Stops at once: a pass in progress ends after its current batch. */
  stop(): Promise<void>;
  /** One full pass; what start() runs every interval. Returns how many rows each task removed. */
  runOnce(): Promise<Record<string, number>>;
}

/**
 * Removes what nothing needs any more: idempotency records past their 24-hour window, blobs no
 * skill file points at (replaced by an import), rate-limit counters of past windows, expired
 * console sessions and failed sign-ins too old to count, expired OAuth records; on the
 * embedded database, also stale planner statistics. Bounded batches, yielding to requests between them.
 */
export function createHousekeeping({
  db,
  clock,
  logger,
  intervalMs = 10 * 60 * 1000,
  batchSize = 500,
  refreshPlannerStatistics = false,
}: HousekeepingOptions): Housekeeping {
  const idempotency = createIdempotencyRepository(db);
  const blobs = createStoredBlobRepository(db);
  const rateLimitCounters = createRateLimitCounterRepository(db);
  const reviewers = createReviewerRepository(db);
  const oauthRecords = createOAuthRecordRepository(db);
  const plannerStatistics = createPlannerStatisticsRepository(db);
  const before = (now: Date, ms: number) => new Date(now.getTime() - ms);
  const tasks: Record<string, (now: Date) => Promise<number>> = {
    idempotencyRecords: (now) => idempotency.purgeExpired(before(now, IDEMPOTENCY_WINDOW_MS), batchSize),
    orphanedBlobs: (now) => blobs.purgeOrphans(before(now, ORPHAN_GRACE_MS), batchSize),
    rateLimitCounters: () => rateLimitCounters.purgeExpired(batchSize),
    expiredSessions: (now) => reviewers.purgeExpiredSessions(now, batchSize),
    // Failed sign-ins older than this no longer slow anyone down (src/services/sign-in-throttle.ts).
    forgottenSignInFailures: (now) => reviewers.purgeFailures(before(now, THROTTLE.forgetAfterMs), batchSize),
    // Codes, tokens, interactions past their TTL, and registered clients nobody approved.
    expiredOAuthRecords: (now) => oauthRecords.purgeExpired(now, batchSize),
  };

  async function runPass(shouldStop: () => boolean): Promise<Record<string, number>> {
    const removed: Record<string, number> = {};
    for (const [name, task] of Object.entries(tasks)) {
      removed[name] = 0;
      for (;;) {
        const count = await task(clock.now());
        removed[name] += count;
        if (count < batchSize || shouldStop()) break;
        await yieldToRequests();
      }
    }
    if (refreshPlannerStatistics) {
      for (const table of SEARCHED_TABLES) {
        if (shouldStop()) break;
        await plannerStatistics.refresh(table);
        await yieldToRequests();
      }
    }
    return removed;
  }

  return periodicPass({
    pass: runPass,
    intervalMs,
    logger,
    name: "housekeeping pass",
    onPass: (removed) => {
      if (Object.values(removed).some((count) => count > 0)) logger.info({ removed }, "housekeeping");
    },
  });
}
