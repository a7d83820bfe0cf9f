import { postgresDatabase } from "../src/db/database";
import { applyMigrations } from "../src/db/migrations";
import { createRateLimitCounterRepository } from "../src/repositories/rate-limit-counter.repository";
import { PostgresRateLimitStore } from "../src/http/rate-limit/postgres-store";
import { Pool } from "pg";
import { postgresExecutor } from "../src/db/postgres-executor";

// `DATABASE_URL=… npx tsx bench/rate-limit-bench.ts`: the cost per request of the shared counter
// on a real PostgreSQL, sequential and with 8 concurrent callers on one key: when every hit is an
// UPSERT, and far from the limit, where hits are counted in the process.
async function main() {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("set DATABASE_URL to a PostgreSQL with pgvector");
  const pool = new Pool({ connectionString: url });
  await applyMigrations(postgresExecutor(pool));
  await pool.end();
  const database = postgresDatabase(url);
  const measure = async (limit: number) => {
    const store = new PostgresRateLimitStore(createRateLimitCounterRepository(database.prisma), `bench-${limit}:`);
    store.init({ windowMs: 60_000, limit } as never);
    for (let i = 0; i < 200; i++) await store.increment("warm");
    const runs = 2000;
    let started = process.hrtime.bigint();
    for (let i = 0; i < runs; i++) await store.increment(`key${i % 50}`);
    const sequential = Number(process.hrtime.bigint() - started) / 1e6 / runs;
    started = process.hrtime.bigint();
    await Promise.all(Array.from({ length: 8 }, async () => {
      for (let i = 0; i < runs / 8; i++) await store.increment("hot");
    }));
    const concurrent = Number(process.hrtime.bigint() - started) / 1e6 / runs;
    return `${sequential.toFixed(3)} ms per increment sequential, ${concurrent.toFixed(3)} ms with 8 callers on one key`;
  };
  // Limit 1: every hit is past half the limit, so each one is an UPSERT. 600 (the default): 40
  // hits a key, all below half, counted in the process and synced once a second.
  console.log(`rate-limit counter on PostgreSQL, every hit in the database: ${await measure(1)}`);
  console.log(`rate-limit counter on PostgreSQL, far from the limit (600): ${await measure(600)}`);
  await database.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
