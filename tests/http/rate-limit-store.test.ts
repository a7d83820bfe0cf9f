import type { Options } from "express-rate-limit";
import { createRateLimitCounterRepository } from "../../src/repositories/rate-limit-counter.repository";
import { PostgresRateLimitStore, SYNC_INTERVAL_MS } from "../../src/http/rate-limit/postgres-store";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let prefixes = 0;
function storeWithLimit(limit: number) {
  const store = new PostgresRateLimitStore(createRateLimitCounterRepository(t.database.prisma), `store-test-${++prefixes}:`);
  store.init({ windowMs: 60_000, limit } as Options);
  return store;
}

const hitsInDatabase = async (store: PostgresRateLimitStore, key: string) => {
  const row = await t.database.prisma.rateLimitCounter.findUnique({ where: { key: store.prefix + key } });
  return row?.hits ?? 0;
};

async function increments(store: PostgresRateLimitStore, key: string, count: number): Promise<number[]> {
  const totals: number[] = [];
  for (let i = 0; i < count; i++) totals.push((await store.increment(key)).totalHits);
  return totals;
}

describe("the shared rate-limit counter", () => {
  it("counts a key's hits far from its limit in the process, adding them to the database's counter once a second", async () => {
    const store = storeWithLimit(100);
    expect(await increments(store, "k", 5)).toEqual([1, 2, 3, 4, 5]);
    expect(await hitsInDatabase(store, "k")).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, SYNC_INTERVAL_MS + 50));
    expect(await increments(store, "k", 1)).toEqual([6]);
    expect(await hitsInDatabase(store, "k")).toBe(6);
  });

  it("answers a hit counted in the process at once, without a promise, and one synced with the database after it", async () => {
    const store = storeWithLimit(100);
    const first = store.increment("k");
    expect(first).toBeInstanceOf(Promise);
    expect((await first).totalHits).toBe(1);
    // What the limiter relies on to let a request on in the same turn (counting-limiter.ts).
    expect(store.increment("k")).toEqual({ totalHits: 2, resetTime: expect.any(Date) });
  });

  it("counts every hit in the database from half the limit on", async () => {
    const store = storeWithLimit(10);
    expect(await increments(store, "k", 11)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(await hitsInDatabase(store, "k")).toBe(11);
  });

  it("adds the hits of two processes near the limit into one exact total", async () => {
    const first = storeWithLimit(4);
    // Another process's store: the same counters, its own local counts.
    const second = new PostgresRateLimitStore(createRateLimitCounterRepository(t.database.prisma), first.prefix);
    second.init({ windowMs: 60_000, limit: 4 } as Options);
    expect(await increments(first, "k", 2)).toEqual([1, 2]);
    expect(await increments(second, "k", 3)).toEqual([3, 4, 5]);
    expect((await first.increment("k")).totalHits).toBe(6);
    expect(await hitsInDatabase(first, "k")).toBe(6);
  });
});
