import express, { type NextFunction, type Request, type Response } from "express";
import { MemoryStore, rateLimit, type Store } from "express-rate-limit";
import request from "supertest";
import { countingLimiter } from "../../src/http/rate-limit/counting-limiter";

// The service's limiter writes the fields express-rate-limit's `draft-8` mode writes, over the
// same stores: a client that parsed the library's fields parses ours. Each app below answers
// with one limiter or the other, for the same keys and budget.
const LIMIT = 3;
const WINDOW_MS = 60_000;
const keyOf = (req: Request) => req.get("x-key") ?? "anonymous";

function appWith(limiter: express.RequestHandler) {
  const app = express();
  app.get("/thing", limiter, (req, res) => {
    res.status(req.get("x-fail") ? 400 : 200).json({ ok: true });
  });
  app.use((error: Error, _req: Request, res: Response, _next: NextFunction) => {
    res.status(429).json({ error: error.message });
  });
  return app;
}

const theLibrary = (onlyFailures: boolean) =>
  appWith(
    rateLimit({
      windowMs: WINDOW_MS,
      limit: LIMIT,
      standardHeaders: "draft-8",
      legacyHeaders: false,
      identifier: "per-key",
      store: new MemoryStore(),
      keyGenerator: keyOf,
      skipSuccessfulRequests: onlyFailures,
      handler: (_req, _res, next) => next(new Error("refused")),
      validate: false,
    }),
  );

const ours = (onlyFailures: boolean) =>
  appWith(
    countingLimiter({
      name: "per-key",
      limit: LIMIT,
      windowMs: WINDOW_MS,
      store: new MemoryStore(),
      keyOf,
      onlyFailures,
      refusal: () => new Error("refused"),
    }),
  );

/** The fields of one answer, the seconds to reset left out (they tick between the two apps). */
const fieldsOf = (res: request.Response) => ({
  status: res.status,
  policy: res.headers["ratelimit-policy"],
  remaining: /r=(\d+)/.exec(String(res.headers.ratelimit))?.[1],
  named: String(res.headers.ratelimit).replace(/; t=\d+$/, ""),
  retryAfter: res.headers["retry-after"] === undefined ? undefined : "set",
});

async function answers(app: express.Express, sequence: readonly { key: string; fail?: boolean }[]) {
  const seen = [];
  for (const step of sequence) {
    const req = request(app).get("/thing").set("x-key", step.key);
    seen.push(fieldsOf(await (step.fail ? req.set("x-fail", "1") : req)));
  }
  return seen;
}

describe("countingLimiter", () => {
  it("writes the same RateLimit, RateLimit-Policy and Retry-After as express-rate-limit's draft-8, per key", async () => {
    const sequence = [{ key: "a" }, { key: "a" }, { key: "b" }, { key: "a" }, { key: "a" }, { key: "a" }, { key: "b" }];
    const [library, service] = await Promise.all([answers(theLibrary(false), sequence), answers(ours(false), sequence)]);
    expect(service).toEqual(library);
    expect(service.map((seen) => seen.status)).toEqual([200, 200, 200, 200, 429, 429, 200]);
    expect(service[0]!.policy).toMatch(/^"per-key"; q=3; w=60; pk=:[A-Za-z0-9+/=]+:$/);
  });

  it("counts only failures as the library's skipSuccessfulRequests does", async () => {
    const sequence = [{ key: "a" }, { key: "a", fail: true }, { key: "a" }, { key: "a", fail: true }, { key: "a", fail: true }, { key: "a" }, { key: "a", fail: true }];
    const [library, service] = await Promise.all([answers(theLibrary(true), sequence), answers(ours(true), sequence)]);
    expect(service).toEqual(library);
    // Past three failures the fourth request is refused whatever it would have answered.
    expect(service.map((seen) => seen.status)).toEqual([200, 400, 200, 400, 400, 429, 429]);
  });

  it("seconds to reset and Retry-After count down the window", async () => {
    const app = ours(false);
    for (let i = 0; i < LIMIT; i++) await request(app).get("/thing").set("x-key", "c");
    const refused = await request(app).get("/thing").set("x-key", "c");
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_MS / 1000);
    expect(refused.headers.ratelimit).toBe(`"per-key"; r=0; t=${retryAfter}`);
  });

  it("waits for a store's count whether it answers at once, by a promise or by another thenable", async () => {
    const counts = new Map<string, number>();
    const count = (key: string) => {
      counts.set(key, (counts.get(key) ?? 0) + 1);
      return { totalHits: counts.get(key)!, resetTime: new Date(Date.now() + WINDOW_MS) };
    };
    const storeAnswering = (answer: (key: string) => unknown): Store => ({ increment: answer as Store["increment"], decrement: () => undefined, resetKey: () => undefined });
    const stores = {
      // What the shared counters answer between syncs.
      "at once": storeAnswering(count),
      promise: storeAnswering(async (key) => count(key)),
      thenable: storeAnswering((key) => ({ then: (resolve: (value: unknown) => void) => resolve(count(key)) })),
    };
    for (const [kind, store] of Object.entries(stores)) {
      const app = appWith(countingLimiter({ name: "per-key", limit: LIMIT, windowMs: WINDOW_MS, store, keyOf, refusal: () => new Error("refused") }));
      const statuses = [];
      for (let i = 0; i <= LIMIT; i++) statuses.push((await request(app).get("/thing").set("x-key", kind)).status);
      expect({ kind, statuses }).toEqual({ kind, statuses: [200, 200, 200, 429] });
    }
  });
});
