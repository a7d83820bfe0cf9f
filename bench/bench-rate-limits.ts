import { DEFAULT_RATE_LIMITS, type RateLimitSettings } from "../src/http/rate-limit/rate-limiters";

/** The default limiters with budgets a bench run never reaches: their cost is measured, not their refusals. */
export const BENCH_RATE_LIMITS: RateLimitSettings = { ...DEFAULT_RATE_LIMITS, perKey: 1_000_000_000, perAddress: 1_000_000_000, authFailures: 1_000_000_000 };
