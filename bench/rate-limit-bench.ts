import { postgresDatabase } from "../src/db/database";
import { applyMigrations } from "../src/db/migrations";
import { PostgresRateLimitStore } from "../src/http/rate-limit/postgres-store";
import { Pool } from "pg";

// `DATABASE_URL=… npx tsx bench/rate-limit-bench.ts`: the cost per request of the shared counter
// (one UPSERT) on a real PostgreSQL, sequential and with 8 concurrent callers on one key.
async function main() {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("set DATABASE_URL to a PostgreSQL with pgvector");
  const pool = new Pool({ connectionString: url });
  await applyMigrations({ exec: async (sql) => void (await pool.query(sql)), query: async (sql, params) => (await pool.query(sql, params)).rows });
  await pool.end();
  const database = postgresDatabase(url);
  const store = new PostgresRateLimitStore(database.prisma, "bench:");
  store.init({ windowMs: 60_000 } as never);
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
  console.log(`rate-limit counter on PostgreSQL: ${sequential.toFixed(3)} ms per increment sequential, ${concurrent.toFixed(3)} ms per increment with 8 callers on one key`);
  await database.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
