import type { Request, RequestHandler, Response } from "express";
import { ipKeyGenerator, MemoryStore, rateLimit, type Store } from "express-rate-limit";
import { ApiError } from "../api-error";
import { PostgresRateLimitStore, type SharedCounters } from "./postgres-store";

export interface RateLimitSettings {
  windowSeconds: number;
  /** Requests per window for each API key on /api/v1. */
  perKey: number;
  /** Requests per window for each client address on the routes without a key. */
  perAddress: number;
  /** Console sign-in attempts per client address every SIGN_IN_WINDOW_SECONDS (default 10). */
  signIn?: number;
  /** Count in the database, shared by every process on it (default: when it is a managed PostgreSQL). */
  shared?: boolean;
}

export const DEFAULT_RATE_LIMITS: RateLimitSettings = { windowSeconds: 60, perKey: 600, perAddress: 120 };

export interface RateLimiters {
  /** After authentication: one budget per API key, named `per-key` in the headers. */
  perKey: RequestHandler;
  /** In the route chain of the routes without credentials: one budget per client address (`req.ip`, so `trust proxy` applies). */
  perAddress: RequestHandler;
  /** The console's sign-in form: a stricter budget per client address, whatever the outcome. */
  signIn: RequestHandler;
}

/**
 * The console's sign-in: attempts per client address in five minutes, whatever their outcome
 * (failed ones are also slowed down per account by the reviewer service).
 */
export const SIGN_IN_WINDOW_SECONDS = 300;
export const DEFAULT_SIGN_IN_LIMIT = 10;

/**
 * The limiters of one app, counting in memory (one process) or in the database's shared counters
 * (several processes; by default on a managed PostgreSQL).
 */
export function createRateLimiters(settings: RateLimitSettings, database: { kind: "embedded" | "postgres"; counters: SharedCounters }): RateLimiters {
  const shared = settings.shared ?? database.kind === "postgres";
  const storeFor = (prefix: string): Store => (shared ? new PostgresRateLimitStore(database.counters, prefix) : new MemoryStore());
  return {
    perKey: addressOrKeyLimiter({
      name: "per-key",
      limit: settings.perKey,
      windowSeconds: settings.windowSeconds,
      store: storeFor("key:"),
      keyOf: (_req, res) => (res.locals.principal as { keyId: string }).keyId,
      what: "this API key",
    }),
    perAddress: createAddressRateLimiter({
      name: "per-address",
      limit: settings.perAddress,
      windowSeconds: settings.windowSeconds,
      store: storeFor("address:"),
    }),
    signIn: createAddressRateLimiter({
      name: "sign-in",
      limit: settings.signIn ?? DEFAULT_SIGN_IN_LIMIT,
      windowSeconds: SIGN_IN_WINDOW_SECONDS,
      store: storeFor("sign-in:"),
    }),
  };
}

/**
 * A per-client-address limiter, for any route without a key (e.g. a sign-in form with its own,
 * stricter limit). IPv6 clients are counted per /56, as one household or host has many addresses.
 */
export function createAddressRateLimiter(options: { name: string; limit: number; windowSeconds: number; store?: Store }): RequestHandler {
  return addressOrKeyLimiter({
    ...options,
    store: options.store ?? new MemoryStore(),
    keyOf: (req) => ipKeyGenerator(req.ip ?? "unknown"),
    what: "your address",
  });
}

function addressOrKeyLimiter(options: {
  name: string;
  limit: number;
  windowSeconds: number;
  store: Store;
  keyOf: (req: Request, res: Response) => string;
  what: string;
}): RequestHandler {
  return rateLimit({
    windowMs: options.windowSeconds * 1000,
    limit: options.limit,
    // IETF RateLimit / RateLimit-Policy fields (draft-ietf-httpapi-ratelimit-headers-08 syntax).
    standardHeaders: "draft-8",
    legacyHeaders: false,
    identifier: options.name,
    store: options.store,
    keyGenerator: options.keyOf,
    // Retry-After is already set when the handler runs; the error middleware writes `{error, code}`.
    handler: (_req, res, next) => {
      const retryAfter = res.get("Retry-After") ?? String(options.windowSeconds);
      next(
        new ApiError(
          "rate_limited",
          `Too many requests from ${options.what}: the limit is ${options.limit} per ${options.windowSeconds} s; retry after ${retryAfter} s`,
        ),
      );
    },
    // `trust proxy` is the deployment's call (TRUST_PROXY); its warnings would only repeat that.
    validate: { trustProxy: false, xForwardedForHeader: false },
  });
}
