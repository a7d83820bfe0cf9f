import type { Database } from "../src/db/database";
import { Prisma } from "../src/generated/prisma/client";
import { LocalEmbeddings } from "../src/embeddings/local-embeddings";
import { maintainSearchNow } from "../src/indexing/search-maintenance";
import { createLogger } from "../src/lib/logger";
import { systemClock } from "../src/lib/clock";
import { createArtifactSearchRepository, filteredNearestQuery, nearestQuery } from "../src/repositories/artifact-search.repository";
import { createVectorIndexRepository } from "../src/repositories/vector-index.repository";
import { artifactFilterCondition, type ArtifactFilters } from "../src/search/artifact-filters";
import type { QueryVector } from "../src/search/hybrid-query";
import { createServices } from "../src/services";
import { openDatabase } from "./pipeline-bench";
import { ANALYST_QUESTIONS } from "./scale/questions";

// `npm run bench:filters` (never part of `npm test`): what a search's filters cost on a workspace
// past the size where it gets its own IVFFlat index, and whether they still find the nearest
// matching artifacts. One workspace of FILTER_BENCH_ARTIFACTS validated artifacts (default 50,000
// on PostgreSQL, 10,000 embedded; two vectors each), whose data sources, times and confidences
// make filters of known selectivity. BENCH_DATABASE_URL: that PostgreSQL server (its public schema
// is DROPPED); otherwise the embedded engine. Progress to stderr, the table to stdout.

const progress = (message: string) => console.error(`[filters] ${message}`);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const TEXTS = 1_000;
const RUNS = Number(process.env.FILTER_BENCH_RUNS ?? 15);

/** The data source of artifact n: 9% crm, 0.9% billing, 0.09% ledger, 0.01% survey, the rest warehouse. */
const SOURCE = `CASE WHEN n % 10000 < 1 THEN 'survey' WHEN n % 10000 < 10 THEN 'ledger' WHEN n % 10000 < 100 THEN 'billing'
                     WHEN n % 10000 < 1000 THEN 'crm' ELSE 'warehouse' END`;

const METRICS = ["revenue", "churn", "signups", "support tickets", "refunds", "ad spend", "trial conversions", "active users", "gross margin", "order volume"];
const REGIONS = ["EMEA", "North America", "APAC", "Latin America", "Germany", "Japan", "Brazil", "the UK", "India", "Canada"];
const MOVES = ["rose", "fell", "doubled", "halved", "stalled", "spiked", "recovered", "dropped sharply"];
const SEGMENTS = ["enterprise accounts", "self-serve users", "mobile customers", "new cohorts", "partners", "students"];
const headline = (n: number) =>
  `${METRICS[n % METRICS.length]} ${MOVES[Math.floor(n / 3) % MOVES.length]} for ${SEGMENTS[Math.floor(n / 7) % SEGMENTS.length]} in ${REGIONS[Math.floor(n / 11) % REGIONS.length]}`;

/**
 * `count` validated artifacts, each of one of the TEXTS headlines' vectors plus noise, in batches.
 * The noise's sub-select names the row (`WHERE n >= 0`), so that it is drawn for each row, not once.
 */
async function seed(database: Database, workspaceId: string, count: number, vectors: number[][], model: string): Promise<void> {
  const db = database.prisma;
  await db.$executeRawUnsafe(`CREATE TABLE bench_texts (id int PRIMARY KEY, v vector(512) NOT NULL)`);
  await db.$executeRawUnsafe(`INSERT INTO bench_texts SELECT * FROM unnest($1::int[], $2::text[]::vector[])`, vectors.map((_, i) => i), vectors.map((v) => `[${v.join(",")}]`));
  for (let start = 0; start < count; start += 2_000) {
    const end = Math.min(count, start + 2_000);
    await db.$executeRawUnsafe(
      `WITH input AS (SELECT n, $3::text[] AS texts FROM generate_series($4::int, $5::int - 1) AS n),
       inserted AS (
         INSERT INTO artifacts (id, workspace_id, status, trigger, summary, why, confidence, confidence_explanation, data_sources,
                                created_by, validated_at, validated_by, created_at, updated_at)
         SELECT $1 || '_art_' || n, $1, 'validated', 'chat', texts[n % ${TEXTS} + 1] || ' (' || n || ')', 'Generated for the benchmark',
                0.5 + (n % 50) / 100.0, 'synthetic', jsonb_build_array(jsonb_build_object('type', 'database', 'name', ${SOURCE})),
                'bench', now() - n * interval '1 minute' + (n % 7) * interval '1 hour', 'bench', now() - n * interval '1 minute', now()
         FROM input RETURNING id)
       INSERT INTO artifact_embeddings (id, artifact_id, facet, workspace_id, searchable, model, embedding)
       SELECT $1 || '_art_' || n || ':' || f.facet, $1 || '_art_' || n, f.facet::artifact_facet, $1, true, $2,
              l2_normalize(t.v + (SELECT array_agg((random() - 0.5) * 0.04) FROM generate_series(1, 512) WHERE n >= 0)::vector(512))::halfvec
       FROM input CROSS JOIN (VALUES ('headline'), ('body')) AS f(facet) JOIN bench_texts t ON t.id = n % ${TEXTS}`,
      workspaceId, model, Array.from({ length: TEXTS }, (_, i) => headline(i)), start, end,
    );
    progress(`seeded ${end} of ${count}`);
  }
  await db.$executeRawUnsafe(`DROP TABLE bench_texts`);
}

async function main(): Promise<void> {
  const url = process.env.BENCH_DATABASE_URL;
  const count = Number(process.env.FILTER_BENCH_ARTIFACTS ?? (url ? 50_000 : 10_000));
  const database = await openDatabase(url);
  const embeddings = new LocalEmbeddings();
  try {
    const services = createServices({ database, clock: systemClock, logger: createLogger("silent"), embeddings });
    const workspace = await services.workspaces.create({ name: "Filter bench" });
    const texts = await embeddings.embed(Array.from({ length: TEXTS }, (_, i) => headline(i)));
    await seed(database, workspace.id, count, texts, embeddings.model);
    await maintainSearchNow(database);
    await database.prisma.$executeRawUnsafe(database.kind === "postgres" ? "VACUUM ANALYZE" : "ANALYZE");
    const indexes = createVectorIndexRepository(database.prisma, { engine: database.kind });
    const own = (await indexes.ownIndexes(workspace.id)).get("artifact_embeddings");
    if (!own) throw new Error("the workspace got no index of its own: raise FILTER_BENCH_ARTIFACTS");
    const repository = createArtifactSearchRepository(database.prisma, indexes);
    const questions = ANALYST_QUESTIONS.slice(0, RUNS);
    const queries: QueryVector[] = (await embeddings.embed(questions)).map((vector) => ({ vector, model: embeddings.model }));
    const [{ c10, c1, c01 }] = await database.prisma.$queryRawUnsafe<[{ c10: Date; c1: Date; c01: Date }]>(
      `SELECT percentile_disc(0.9) WITHIN GROUP (ORDER BY created_at) AS c10, percentile_disc(0.99) WITHIN GROUP (ORDER BY created_at) AS c1,
              percentile_disc(0.999) WITHIN GROUP (ORDER BY created_at) AS c01 FROM artifacts WHERE workspace_id = $1`,
      workspace.id,
    );
    const cases: Array<[string, ArtifactFilters | undefined]> = [
      ["none", undefined],
      ["minConfidence 0.55 (90%)", { minConfidence: 0.55 }],
      ["dataSource crm (9%)", { dataSource: "crm" }],
      ["createdAfter, newest 10%", { createdAfter: c10 }],
      ["minConfidence 0.98 (4%)", { minConfidence: 0.98 }],
      ["dataSource billing (0.9%)", { dataSource: "billing" }],
      ["createdAfter, newest 1%", { createdAfter: c1 }],
      ["dataSource ledger (0.09%)", { dataSource: "ledger" }],
      ["createdAfter, newest 0.1%", { createdAfter: c01 }],
      ["dataSource survey (0.01%)", { dataSource: "survey" }],
    ];
    const timed = async (work: () => Promise<unknown>) => {
      const started = performance.now();
      await work();
      return performance.now() - started;
    };
    const exactDistance = indexes.exactDistance;
    // The same search forced to each strategy: the index walk (no filter matches fewer than 0
    // artifacts), and the exact comparison of every matching artifact (none matches more).
    const throughIndex = createArtifactSearchRepository(database.prisma, indexes, { exactMatchingMax: 0 });
    const allMatching = createArtifactSearchRepository(database.prisma, indexes, { exactMatchingMax: 1_000_000_000 });
    const rows: string[] = [];
    for (const [name, filters] of cases) {
      const chosen: number[] = [];
      const viaIndex: number[] = [];
      const viaMatching: number[] = [];
      const candidates: number[] = [];
      let recall = 0;
      let strategy = "";
      for (const [i, query] of queries.entries()) {
        const exact = filters ? filteredNearestQuery(workspace.id, query, { exactDistance, filters }) : nearestQuery(workspace.id, query, { exactDistance });
        let found: { ids: string[]; strategy: string } = { ids: [], strategy: "" };
        chosen.push(await timed(async () => (found = await repository.nearest(workspace.id, query, filters))));
        strategy = found.strategy;
        const truth = new Set((await database.prisma.$queryRaw<Array<{ id: string }>>(exact)).map((row) => row.id));
        recall += truth.size === 0 ? 1 : found.ids.filter((id) => truth.has(id)).length / truth.size;
        if (filters) {
          viaIndex.push(await timed(() => throughIndex.nearest(workspace.id, query, filters)));
          viaMatching.push(await timed(() => allMatching.nearest(workspace.id, query, filters)));
        }
        const text = questions[i]!;
        candidates.push(await timed(() => repository.candidates(workspace.id, { text, vector: Promise.resolve(query), vocabulary: [] }, filters)));
      }
      const [{ matching }] = await database.prisma.$queryRaw<[{ matching: number }]>(
        Prisma.sql`SELECT count(*)::int AS matching FROM artifacts t WHERE t.workspace_id = ${workspace.id} AND ${filters ? artifactFilterCondition(filters) : Prisma.sql`true`}`,
      );
      const cell = (values: number[]) => (values.length ? median(values).toFixed(1) : "—");
      rows.push(
        `| ${name} | ${matching.toLocaleString("en")} | ${strategy} | ${cell(chosen)} | ${(recall / queries.length).toFixed(3)} | ${cell(viaIndex)} | ${cell(viaMatching)} | ${cell(candidates)} |`,
      );
      progress(rows[rows.length - 1]!);
    }
    console.log(`## Filtered search, ${database.kind === "postgres" ? "PostgreSQL" : "embedded engine"}, ${count.toLocaleString("en")} artifacts (${(2 * count).toLocaleString("en")} vectors), own index reading ${own.probes} lists; medians of ${queries.length} questions, ms\n`);
    console.log("| filter | matching artifacts | strategy | nearest, as searched | recall@50 of the exact scan | index walk | exact, matching | both candidate statements |");
    console.log("|---|---|---|---|---|---|---|---|");
    console.log(rows.join("\n"));
  } finally {
    await embeddings.close();
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
