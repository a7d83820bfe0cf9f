import type { Middleware } from "openapi-fetch";

export interface RetryAfterOptions {
  /** Retries of one request after a 429 before the 429 is handed to the caller. */
  maxRetries?: number;
  /** A longer `Retry-After` than this is not waited out: the 429 goes to the caller. */
  maxWaitMs?: number;
  sleep?: (ms: number) => Promise<void>;
  onRetry?: (retry: { url: string; attempt: number; waitMs: number }) => void;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `Retry-After` as milliseconds: delay-seconds or an HTTP-date (RFC 9110 §10.2.3); null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (header === null) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/**
 * openapi-fetch middleware that answers a 429 by waiting as long as the server's `Retry-After` asks
 * (exponential back-off from 1 s when it does not say) and sending the same request again — the
 * same body and headers, so a push keeps its Idempotency-Key and cannot create a second draft.
 */
export function retryAfterMiddleware(options: RetryAfterOptions = {}): Middleware {
  const { maxRetries = 3, maxWaitMs = 60_000, sleep = wait, onRetry } = options;
  // A copy of each request as sent: fetch consumes the body of the original.
  const sent = new Map<string, Request>();
  return {
    onRequest({ request, id }) {
      sent.set(id, request.clone());
    },
    async onResponse({ response, id, options: { fetch } }) {
      const original = sent.get(id);
      sent.delete(id);
      if (response.status !== 429 || !original) return undefined;
      let current = response;
      for (let attempt = 1; current.status === 429 && attempt <= maxRetries; attempt += 1) {
        const waitMs = retryAfterMs(current.headers.get("Retry-After")) ?? 1000 * 2 ** (attempt - 1);
        if (waitMs > maxWaitMs) break;
        onRetry?.({ url: original.url, attempt, waitMs });
        await current.body?.cancel();
        await sleep(waitMs);
        current = await fetch(original.clone());
      }
      return current;
    },
    onError({ id }) {
      sent.delete(id);
    },
  };
}
