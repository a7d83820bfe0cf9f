import { setImmediate as yieldToRequests } from "node:timers/promises";
import type { DbTx } from "../db/database";
import { deleteExpiredRateLimitCounters } from "../http/rate-limit/postgres-store";
import type { Clock } from "../lib/clock";
import type { Logger } from "../lib/logger";
import { IDEMPOTENCY_WINDOW_MS } from "../services/artifact.service";
import { THROTTLE } from "../services/sign-in-throttle";
import { periodicPass } from "./periodic-pass";

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

/** The tables whose plans depend on their size: the searched ones and their vectors. */
const SEARCHED_TABLES = ["artifacts", "artifact_embeddings", "memories", "query_patterns", "error_learnings"];

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
 * console sessions and failed sign-ins too old to count; on the
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
  const tasks: Record<string, (now: Date) => Promise<number>> = {
    // Expiry runs across workspaces; the rows it picks are deleted by their keys, workspace first.
    idempotencyRecords: (now) => db.$executeRaw`
      DELETE FROM "idempotency_records" WHERE ("workspace_id", "id") IN (
        SELECT "workspace_id", "id" FROM "idempotency_records" WHERE "created_at" < ${new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS)} LIMIT ${batchSize})`,
    orphanedBlobs: (now) => db.$executeRaw`
      DELETE FROM "stored_blobs" WHERE "key" IN (
        SELECT b."key" FROM "stored_blobs" b
        WHERE b."created_at" < ${new Date(now.getTime() - ORPHAN_GRACE_MS)}
          AND NOT EXISTS (SELECT 1 FROM "skill_files" f WHERE f."storage_key" = b."key")
        LIMIT ${batchSize})`,
    rateLimitCounters: () => deleteExpiredRateLimitCounters(db, batchSize),
    expiredSessions: (now) => db.$executeRaw`
      DELETE FROM "reviewer_sessions" WHERE "id" IN (
        SELECT "id" FROM "reviewer_sessions" WHERE "expires_at" <= ${now} LIMIT ${batchSize})`,
    // Failed sign-ins older than this no longer slow anyone down (src/services/sign-in-throttle.ts).
    forgottenSignInFailures: (now) => db.$executeRaw`
      DELETE FROM "sign_in_failures" WHERE "subject" IN (
        SELECT "subject" FROM "sign_in_failures" WHERE "last_failed_at" < ${new Date(now.getTime() - THROTTLE.forgetAfterMs)} LIMIT ${batchSize})`,
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
        await db.$executeRawUnsafe(`ANALYZE "${table}"`);
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
