import type { AddressInfo } from "node:net";
import { buildApp } from "../src/app";
import { BENCH_RATE_LIMITS } from "./bench-rate-limits";
import { embeddedDatabase, type Database } from "../src/db/database";
import { openMemoryDatabase } from "../src/db/embedded-database";
import { applyMigrations } from "../src/db/migrations";
import { LocalEmbeddings } from "../src/embeddings/local-embeddings";
import { Prisma } from "../src/generated/prisma/client";
import { systemClock } from "../src/lib/clock";
import { createLogger } from "../src/lib/logger";
import { createArtifactSearchRepository, nearestQuery, scansOwnIndex, type NearestStrategy } from "../src/repositories/artifact-search.repository";
import { createVectorIndexRepository } from "../src/repositories/vector-index.repository";
import { createServices } from "../src/services";
import { maintainSearchNow } from "../src/indexing/search-maintenance";
import { OWN_INDEX_MIN_VECTORS } from "../src/indexing/vector-index-maintenance";

/** The strategies of a search without a filter (`matching` is a filtered search's). */
type UnfilteredStrategy = Exclude<NearestStrategy, "matching">;

// The artifact loop on the embedded database at a realistic size: two workspaces of N validated
// artifacts each, written with bulk SQL, their vectors made by the real local model from varied
// generated headlines (random vectors would be a worst case no real workload has).

// Just past the size where a workspace gets an index of its own (2 vectors an artifact here).
const PER_WORKSPACE = Number(process.env.BENCH_ARTIFACTS ?? OWN_INDEX_MIN_VECTORS.embedded / 2 + 1);
const QUERIES = ["enterprise customers are leaving", "advertising costs went up", "sales in Asia", "help desk requests surged", "margins got worse in Europe"];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.95)]!;
const ms = (value: number) => `${value.toFixed(2)} ms`;

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const started = process.hrtime.bigint();
  const result = await fn();
  return [Number(process.hrtime.bigint() - started) / 1e6, result];
}

const METRICS = ["revenue", "churn", "signups", "support tickets", "refunds", "ad spend", "page load time", "trial conversions", "active users", "order volume", "gross margin", "inventory levels"];
const REGIONS = ["EMEA", "North America", "APAC", "Latin America", "Germany", "Japan", "Brazil", "the UK", "India", "Canada"];
const MOVES = ["rose", "fell", "doubled", "halved", "stalled", "spiked", "recovered", "dropped sharply"];
const SEGMENTS = ["enterprise accounts", "self-serve users", "mobile customers", "new cohorts", "partners", "students"];
const PERIODS = ["in Q1", "in Q2", "last quarter", "over the holidays", "after the price change", "since the redesign"];

/** A varied, realistic headline for artifact n. */
function headline(n: number): string {
  const pick = <T>(list: T[], salt: number) => list[Math.floor(n / salt) % list.length]!;
  return `${pick(METRICS, 1)} ${pick(MOVES, 3)} for ${pick(SEGMENTS, 7)} in ${pick(REGIONS, 11)} ${pick(PERIODS, 13)}`;
}

/** N validated artifacts with real vectors of their headline (the same vector serves both facets here). */
async function seed(database: Database, embeddings: LocalEmbeddings, workspaceId: string, offset: number): Promise<void> {
  for (let start = 0; start < PER_WORKSPACE; start += 500) {
    const numbers = Array.from({ length: Math.min(500, PER_WORKSPACE - start) }, (_, i) => offset + start + i);
    const texts = numbers.map(headline);
    const vectors = (await embeddings.embed(texts)).map((vector) => `[${vector.join(",")}]`);
    await database.prisma.$executeRawUnsafe(
      `WITH input AS (SELECT * FROM unnest($2::int[], $3::text[], $4::text[]) AS t(n, summary, vector))
       , inserted AS (
         INSERT INTO artifacts (id, workspace_id, status, trigger, summary, why, confidence, confidence_explanation,
                                created_by, validated_at, validated_by, created_at, updated_at)
         SELECT $1 || '_art_' || n, $1, 'validated', 'chat', summary, 'Generated for the benchmark', 0.5, 'synthetic',
                'bench', now(), 'bench', now() - n * interval '1 second', now()
         FROM input RETURNING id)
       INSERT INTO artifact_embeddings (id, artifact_id, facet, workspace_id, searchable, model, embedding)
       SELECT $1 || '_art_' || n || ':' || f.facet, $1 || '_art_' || n, f.facet::artifact_facet, $1, true, $5, vector::vector
       FROM input CROSS JOIN (VALUES ('headline'), ('body')) AS f(facet)`,
      workspaceId,
      numbers,
      texts,
      vectors,
      embeddings.model,
    );
  }
}

/** The plan of the nearest-neighbour query exactly as the repository runs it, with the long vector literal elided. */
async function explain(database: Database, statement: Prisma.Sql) {
  const plan = await database.prisma.$queryRaw<Array<{ "QUERY PLAN": string }>>(Prisma.sql`EXPLAIN ANALYZE ${statement}`);
  return plan.map((row) => row["QUERY PLAN"].replace(/'\[[^\]]*\]'/g, "'[…]'")).join("\n");
}

export async function runSearchBench(): Promise<void> {
  const logger = createLogger("silent");
  const embedded = await openMemoryDatabase();
  await applyMigrations(embedded.executor);
  const database = embeddedDatabase(embedded);
  const embeddings = new LocalEmbeddings();
  const services = createServices({ database, clock: systemClock, logger, embeddings });
  // The limiters still run on every request (their cost is part of the figures), with budgets no
  // bench run reaches.
  const server = buildApp({ services, logger, rateLimits: BENCH_RATE_LIMITS }).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const workspaces: Array<{ id: string; auth: Record<string, string> }> = [];
  for (const name of ["bench-a", "bench-b"]) {
    const workspace = await services.workspaces.create({ name });
    const key = await services.apiKeys.create(workspace.id, { name: "bench" });
    workspaces.push({ id: workspace.id, auth: { authorization: `Bearer ${key.key}` } });
  }
  const [seedMs] = await timed(async () => {
    for (const [index, workspace] of workspaces.entries()) await seed(database, embeddings, workspace.id, index * PER_WORKSPACE);
    // Each workspace gets the index of its own the worker gives a workspace of this size.
    await maintainSearchNow(database);
    await database.prisma.$executeRawUnsafe("ANALYZE");
  });
  const vectors = PER_WORKSPACE * 2 * workspaces.length;
  console.log(`Seeded ${workspaces.length} workspaces × ${PER_WORKSPACE} validated artifacts (${vectors} vectors) in ${(seedMs / 1000).toFixed(1)} s.`);

  const target = workspaces[0]!;
  const [queryVector] = await embeddings.embed([QUERIES[0]!]);
  const query = { vector: queryVector!, model: embeddings.model };
  const indexes = createVectorIndexRepository(database.prisma, { engine: database.kind });
  const own = (await indexes.ownIndexes(target.id)).get("artifact_embeddings");
  const { exactDistance } = indexes;
  const statements: Record<UnfilteredStrategy, Prisma.Sql> = { exact: nearestQuery(target.id, query, { exactDistance }), index: nearestQuery(target.id, query, { exactDistance, own }) };
  const usesOwnIndex = own !== undefined && (await scansOwnIndex(database.prisma, target.id, statements.index));
  console.log(`\nThe workspace's own index (${own?.probes ?? 0} lists read), called as the search calls it (its plan is the function's):\n${(await explain(database, statements.index)).replace(/^/gm, "  ")}`);
  console.log(`Own index used: ${usesOwnIndex ? "yes" : "NO"}`);
  console.log(`\nThe exact strategy, for comparison:\n${(await explain(database, statements.exact)).replace(/^/gm, "  ")}`);

  const repository = createArtifactSearchRepository(database.prisma, indexes);
  const strategyMs: Record<UnfilteredStrategy, number[]> = { exact: [], index: [] };
  for (let i = 0; i < 50; i++) {
    for (const strategy of ["exact", "index"] as const) {
      const [elapsed] = await timed(() => database.prisma.$queryRaw(statements[strategy]));
      strategyMs[strategy].push(elapsed);
    }
  }
  const recall = await (async () => {
    const exact = new Set((await database.prisma.$queryRaw<Array<{ id: string }>>(statements.exact)).map((r) => r.id));
    const chosen = await repository.nearest(target.id, query);
    const found = new Set(chosen.ids);
    return { strategy: chosen.strategy, overlap: [...exact].filter((id) => found.has(id)).length / exact.size };
  })();
  console.log(`\nNearest 100 vectors of one workspace, 50 runs each:`);
  console.log(`  exact scan: median ${ms(median(strategyMs.exact))}`);
  console.log(`  own index:  median ${ms(median(strategyMs.index))}  (${(median(strategyMs.exact) / median(strategyMs.index)).toFixed(1)}× faster)`);
  console.log(`  the search chose ${recall.strategy}; recall of the exact scan's artifacts: ${(recall.overlap * 100).toFixed(0)}%`);

  const searchMs: number[] = [];
  for (let i = 0; i < 100; i++) {
    const text = encodeURIComponent(QUERIES[i % QUERIES.length]!);
    const [elapsed, res] = await timed(() => fetch(`${base}/api/v1/artifacts?query=${text}&limit=10`, { headers: target.auth }));
    if (res.status !== 200) throw new Error(`search answered ${res.status}`);
    await res.arrayBuffer();
    searchMs.push(elapsed);
  }
  const pushMs: number[] = [];
  for (let i = 0; i < 200; i++) {
    const [elapsed, res] = await timed(() =>
      fetch(`${base}/api/v1/artifacts`, {
        method: "POST",
        headers: { ...target.auth, "content-type": "application/json" },
        body: JSON.stringify({ summary: `bench push ${i}`, why: "w", confidence: 0.5, confidenceExplanation: "c" }),
      }),
    );
    if (res.status !== 201) throw new Error(`push answered ${res.status}`);
    await res.arrayBuffer();
    pushMs.push(elapsed);
  }
  const fetchMs: number[] = [];
  for (let n = 1; n <= 100; n++) {
    const [elapsed, res] = await timed(() => fetch(`${base}/api/v1/artifacts/${target.id}_art_${n * 37}`, { headers: target.auth }));
    if (res.status !== 200) throw new Error(`fetch answered ${res.status}`);
    await res.arrayBuffer();
    fetchMs.push(elapsed);
  }
  console.log(`\nHTTP on loopback, one request at a time, workspace of ${PER_WORKSPACE} artifacts:`);
  console.log(`  search (query embedding + hybrid ranking), 100 queries: median ${ms(median(searchMs))}, p95 ${ms(p95(searchMs))}`);
  console.log(`  push (stored; vector deferred),             200 pushes:  median ${ms(median(pushMs))}, p95 ${ms(p95(pushMs))}`);
  console.log(`  fetch by id,                                100 fetches: median ${ms(median(fetchMs))}, p95 ${ms(p95(fetchMs))}`);

  await new Promise((resolve) => server.close(resolve));
  await embeddings.close();
  await database.close();
  if (!usesOwnIndex) process.exitCode = 1;
}
