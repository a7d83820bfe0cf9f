import type { Request, RequestHandler, Response } from "express";
import { ipKeyGenerator, MemoryStore, type Store } from "express-rate-limit";
import { ATTR_RATE_LIMITER } from "../../telemetry/conventions";
import { instruments } from "../../telemetry/instruments";
import { ApiError } from "../api-error";
import { countingLimiter } from "./counting-limiter";
import { PostgresRateLimitStore, type SharedCounters } from "./postgres-store";

export interface RateLimitSettings {
  windowSeconds: number;
  /** Requests per window for each API key on /api/v1. */
  perKey: number;
  /** Requests per window for each client address on the routes without a key. */
  perAddress: number;
  /** Console sign-in attempts per client address every SIGN_IN_WINDOW_SECONDS (default 10). */
  signIn?: number;
  /** Refused credentials per client address every AUTH_FAILURE_WINDOW_SECONDS (default 30). */
  authFailures?: number;
  /** OAuth client registrations per client address every REGISTRATION_WINDOW_SECONDS (default 20). */
  registrations?: number;
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
  /**
   * Around every credential check, a budget of refusals per client address: one for API keys
   * (REST and MCP), one for the admin token, so that an agent retrying a stale key does not lock
   * the operator behind the same address out of the admin API.
   */
  authFailures: AuthFailureLimiter;
  adminTokenFailures: AuthFailureLimiter;
  /** OAuth dynamic client registrations per client address and hour. */
  registrations: RequestHandler;
  /**
   * The authorization server's public metadata and JWKS: the per-address budget, counted apart so
   * that a connector platform's discovery does not spend the budget of the other routes without a key.
   */
  metadata: RequestHandler;
}

export const REGISTRATION_WINDOW_SECONDS = 3600;
export const DEFAULT_REGISTRATION_LIMIT = 20;

/**
 * Refused credentials (unknown or revoked API keys, expired or foreign access tokens, wrong admin
 * tokens) per client address in five minutes. A client with a typo retries a few times; only
 * someone guessing keeps going.
 */
export const AUTH_FAILURE_WINDOW_SECONDS = 300;
export const DEFAULT_AUTH_FAILURE_LIMIT = 30;

export interface AuthFailureLimiter {
  /**
   * After a credential was refused (401): counts the refusal against the client's address, and
   * rejects with 429 instead once the address has spent its budget. Accepted credentials never come here.
   */
  refused(req: Request, res: Response): Promise<void>;
}

/**
 * The console's sign-in: failed attempts per client address in five minutes (failed ones are also
 * slowed down per account by the reviewer service). A successful sign-in gives its attempt back, so
 * colleagues behind one address do not spend each other's budget by signing in; once the address
 * has spent it, every attempt is refused, the right password too: unlike an API key, a password
 * can be guessed, and answering it would tell the guesser which guess was right.
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
      counted: "failed sign-ins",
      onlyFailures: true,
    }),
    authFailures: createAuthFailureLimiter({ limit: settings.authFailures ?? DEFAULT_AUTH_FAILURE_LIMIT, store: storeFor("auth-failure:") }),
    adminTokenFailures: createAuthFailureLimiter({
      limit: settings.authFailures ?? DEFAULT_AUTH_FAILURE_LIMIT,
      store: storeFor("admin-token-failure:"),
      counterName: "admin-token-failures",
    }),
    registrations: createAddressRateLimiter({
      name: "client-registrations",
      limit: settings.registrations ?? DEFAULT_REGISTRATION_LIMIT,
      windowSeconds: REGISTRATION_WINDOW_SECONDS,
      store: storeFor("registration:"),
      counted: "client registrations",
    }),
    metadata: createAddressRateLimiter({
      name: "oauth-metadata",
      limit: settings.perAddress,
      windowSeconds: settings.windowSeconds,
      store: storeFor("metadata:"),
    }),
  };
}

const MAX_SPENT_ADDRESSES = 10_000;

/**
 * Only refusals are counted and only refusals are refused: the credential is checked first, so a
 * valid one is served whatever other credentials failed from its address (a hosted platform's
 * shared egress, an office), and an address past its budget gets 429 instead of 401 for each
 * further credential that fails. None of this budget's headers are crossed with the per-key one's
 * on a successful answer, nor on a 401 within the budget. Whether an address has spent its budget
 * is remembered in the process from the count of its last refusal, so its next refusal goes
 * straight to the 429; with shared counters another process learns it from the count its own next
 * refusal returns.
 */
export function createAuthFailureLimiter(options: { limit: number; store?: Store; counterName?: string }): AuthFailureLimiter {
  const store = options.store ?? new MemoryStore();
  // The refusal itself (429, Retry-After, RateLimit fields) comes from the same limiter as the others.
  const refuse = createAddressRateLimiter({
    name: "auth-failures",
    limit: options.limit,
    windowSeconds: AUTH_FAILURE_WINDOW_SECONDS,
    store,
    counted: "failed authentications",
    counterName: options.counterName,
  });
  const spentUntil = new Map<string, number>();
  const remember = (key: string, until: number) => {
    if (spentUntil.size >= MAX_SPENT_ADDRESSES) {
      const now = Date.now();
      for (const [address, end] of spentUntil) if (end <= now) spentUntil.delete(address);
      if (spentUntil.size >= MAX_SPENT_ADDRESSES) spentUntil.clear();
    }
    spentUntil.set(key, until);
  };
  return {
    async refused(req, res) {
      const key = addressKeyOf(req);
      if ((spentUntil.get(key) ?? 0) <= Date.now()) {
        spentUntil.delete(key);
        const { totalHits, resetTime } = await store.increment(key);
        if (totalHits >= options.limit) remember(key, resetTime?.getTime() ?? Date.now() + AUTH_FAILURE_WINDOW_SECONDS * 1000);
        if (totalHits <= options.limit) return;
      }
      // Counts this refusal too (past the limit, the count only says how far past) and rejects with the 429.
      await new Promise<void>((resolve, reject) => refuse(req, res, (error?: unknown) => (error ? reject(error) : resolve())));
      // Passed: the counter was reset meanwhile, so this refusal is the first of a new window and
      // is answered 401 like any other within the budget, without the limiter's fields.
      spentUntil.delete(key);
      res.removeHeader("RateLimit");
      res.removeHeader("RateLimit-Policy");
    },
  };
}

/** IPv6 clients are counted per /56, as one household or host has many addresses. */
function addressKeyOf(req: Request): string {
  return ipKeyGenerator(req.ip ?? "unknown");
}

/**
 * A per-client-address limiter, for any route without a key (e.g. a sign-in form with its own,
 * stricter limit).
 */
export function createAddressRateLimiter(options: {
  name: string;
  limit: number;
  windowSeconds: number;
  store?: Store;
  counted?: string;
  counterName?: string;
  /** Gives the hit back when the answer is a success (below 400). */
  onlyFailures?: boolean;
}): RequestHandler {
  return addressOrKeyLimiter({
    ...options,
    store: options.store ?? new MemoryStore(),
    keyOf: addressKeyOf,
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
  /** What the limit counts, in its 429 message (default: requests). */
  counted?: string;
  /** The limiter's name in the refusals metric (default: `name`, which the RateLimit headers carry). */
  counterName?: string;
  onlyFailures?: boolean;
}): RequestHandler {
  const refused = { [ATTR_RATE_LIMITER]: options.counterName ?? options.name };
  return countingLimiter({
    name: options.name,
    limit: options.limit,
    windowMs: options.windowSeconds * 1000,
    store: options.store,
    keyOf: options.keyOf,
    onlyFailures: options.onlyFailures ?? false,
    // The error middleware writes `{error, code}`.
    refusal: (retryAfterSeconds) => {
      instruments().rateLimitRefusals.add(1, refused);
      return new ApiError(
        "rate_limited",
        `Too many ${options.counted ?? "requests"} from ${options.what}: the limit is ${options.limit} per ${options.windowSeconds} s; retry after ${retryAfterSeconds} s`,
      );
    },
  });
}
