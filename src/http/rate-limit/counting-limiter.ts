import { createHash } from "node:crypto";
import type { Request, RequestHandler, Response } from "express";
import type { ClientRateLimitInfo, Options, Store } from "express-rate-limit";

export interface CountingLimiterOptions {
  /** The budget's name in the RateLimit fields (`"per-key"`). */
  name: string;
  limit: number;
  windowMs: number;
  /** express-rate-limit's Store: its MemoryStore, or the shared counters (postgres-store.ts). */
  store: Store;
  keyOf(req: Request, res: Response): string;
  /** Gives the hit back once the answer is a success (a status below 400): only failures count. */
  onlyFailures?: boolean;
  /** The error a request past the limit is refused with; Retry-After is set by then. */
  refusal(retryAfterSeconds: number): Error;
}

const PARTITION_KEYS_KEPT = 10_000;

/**
 * A fixed-window limit over one of express-rate-limit's stores, with the fields its `draft-8`
 * mode writes (`RateLimit: "name"; r=…; t=…`, `RateLimit-Policy: "name"; q=…; w=…; pk=:…:`, and
 * `Retry-After` past the limit): one store call and two headers a request. Its own middleware
 * took 25–40 µs of CPU a request where this takes under 10 (docs/performance.md, "What each
 * change bought"): six awaits, the client address worked out for a debug line whether or not
 * it is printed, and the SHA-256 of the key on every answer, which here is made once per key.
 */
export function countingLimiter(options: CountingLimiterOptions): RequestHandler {
  const { name, limit, windowMs, store } = options;
  store.init?.({ windowMs, limit } as Options);
  const windowSeconds = Math.ceil(windowMs / 1000);
  const policy = `"${name}"; q=${limit}; w=${windowSeconds}; pk=:`;
  const partitionKeys = new Map<string, string>();
  // As express-rate-limit names the partition: the first 12 hex digits of the key's SHA-256, in base64.
  const partitionKeyOf = (key: string): string => {
    let partition = partitionKeys.get(key);
    if (partition === undefined) {
      partition = Buffer.from(createHash("sha256").update(key).digest("hex").slice(0, 12)).toString("base64");
      if (partitionKeys.size >= PARTITION_KEYS_KEPT) partitionKeys.clear();
      partitionKeys.set(key, partition);
    }
    return partition;
  };
  return (req, res, next) => {
    let key: string;
    try {
      key = options.keyOf(req, res);
    } catch (error) {
      next(error);
      return;
    }
    const counted = (hit: ClientRateLimitInfo) => {
      const { totalHits, resetTime } = hit;
      const resetSeconds = resetTime ? Math.max(0, Math.ceil((resetTime.getTime() - Date.now()) / 1000)) : windowSeconds;
      if (!res.headersSent) {
        appendField(res, "RateLimit", `"${name}"; r=${Math.max(limit - totalHits, 0)}; t=${resetSeconds}`);
        appendField(res, "RateLimit-Policy", `${policy}${partitionKeyOf(key)}:`);
      }
      if (options.onlyFailures) {
        res.once("finish", () => {
          // A window that has ended already holds no hit of this request to give back.
          if (res.statusCode >= 400 || (resetTime && Date.now() >= resetTime.getTime())) return;
          // Not given back, the success counts against the window: the caller is refused a little sooner, never later.
          Promise.resolve(store.decrement(key)).catch(() => undefined);
        });
      }
      if (totalHits > limit) {
        res.setHeader("Retry-After", String(resetSeconds));
        next(options.refusal(resetSeconds));
        return;
      }
      next();
    };
    let hit: ReturnType<Store["increment"]>;
    try {
      hit = store.increment(key);
    } catch (error) {
      next(error);
      return;
    }
    // A store that knows the count at once (the shared counters between syncs) answers without a
    // promise's turn. Any thenable is waited for, so that no store's answer is read as a count.
    if (typeof (hit as PromiseLike<ClientRateLimitInfo>).then === "function") Promise.resolve(hit).then(counted, next);
    else counted(hit as ClientRateLimitInfo);
  };
}

/** As Express's `res.append`: a second limiter's field beside the first's, not over it. */
function appendField(res: Response, field: string, value: string): void {
  const previous = res.getHeader(field);
  if (previous === undefined) res.setHeader(field, value);
  else res.setHeader(field, [...(Array.isArray(previous) ? previous : [String(previous)]), value]);
}
