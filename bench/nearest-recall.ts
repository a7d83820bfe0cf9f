import { Client } from "pg";
import { toVectorLiteral } from "../src/embeddings/embeddings-provider";
import { LocalEmbeddings } from "../src/embeddings/local-embeddings";
import { realisticQuestion } from "../tests/support/realistic-workspace";
import { median } from "./load";
import { exactNearestVectors, nearestVectors, shareFound } from "./request-path/nearest-statements";
import { FLOOR_RECALL_QUESTIONS } from "./request-path/questions";

// `BENCH_DATABASE_URL=… npx tsx bench/nearest-recall.ts`: on a database the request-path bench
// left behind (its largest workspace), how much of the exact 10 nearest artifact vectors each
// look-up finds, and at what cost: an HNSW index as the search floor builds it, read at several
// `hnsw.ef_search`, and the workspace's own IVFFlat index at the probes the service reads it with.
// Each on the same questions (RECALL_QUESTIONS of the floor's recall set, none of the measured
// stream), one at a time, in a transaction of its own that is rolled back (the own index's drops
// the HNSW index for itself, so the planner cannot prefer it). The HNSW index is dropped at the end.

const EF_SEARCH = [40, 100, 200, 400, 1000];
const RECALL_QUESTIONS = Number(process.env.RECALL_QUESTIONS ?? 40);
const INDEX = "nearest_recall_hnsw";

async function main() {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) throw new Error("set BENCH_DATABASE_URL to the PostgreSQL database the request-path bench seeded");
  const db = new Client({ connectionString: url });
  await db.connect();
  const embeddings = new LocalEmbeddings({ indexThreads: 0, queryBudgetMs: 600_000 });
  try {
    const [largest] = (await db.query<{ id: string }>("SELECT workspace_id AS id FROM artifacts GROUP BY 1 ORDER BY count(*) DESC LIMIT 1")).rows;
    if (!largest) throw new Error("no artifacts in this database: run the request-path bench on it first");
    const own = (await db.query<{ probes: number }>("SELECT probes FROM workspace_vector_indexes WHERE workspace_id = $1 AND vector_table = 'artifact_embeddings'", [largest.id])).rows[0];
    const scope = `workspace_id = '${largest.id.replace(/'/g, "''")}' AND searchable`;
    const started = performance.now();
    await db.query(`DROP INDEX IF EXISTS ${INDEX}`);
    await db.query(`CREATE INDEX ${INDEX} ON artifact_embeddings USING hnsw (embedding halfvec_cosine_ops) WHERE ${scope}`);
    await db.query("ANALYZE artifact_embeddings");
    const { count } = (await db.query<{ count: number }>(`SELECT count(*)::int AS count FROM artifact_embeddings WHERE ${scope} AND embedding IS NOT NULL`)).rows[0]!;
    console.log(`workspace ${largest.id}: ${count} searchable vectors; HNSW index (pgvector's default m and ef_construction) built in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const nearest = nearestVectors(scope);
    const exact = exactNearestVectors(scope);
    const lookUps: Array<{ name: string; settings: string[] }> = [
      // An IVFFlat index on the same rows (the service's own) is left unread: asked to read every list, it costs more than the HNSW index.
      ...EF_SEARCH.map((ef) => ({ name: `HNSW, ef_search ${ef}${ef === 40 ? " (the floor's)" : ""}`, settings: ["SET LOCAL ivfflat.probes = 32768", `SET LOCAL hnsw.ef_search = ${ef}`] })),
      ...(own ? [{ name: `own IVFFlat index, ${own.probes} probes (the service's)`, settings: [`DROP INDEX ${INDEX}`, `SET LOCAL ivfflat.probes = ${own.probes}`, "SET LOCAL enable_seqscan = off"] }] : []),
    ];
    const inTransaction = async (settings: string[], sql: string, vector: string) => {
      await db.query("BEGIN");
      try {
        for (const setting of settings) await db.query(setting);
        const start = performance.now();
        const ids = (await db.query<{ id: string }>(sql, [vector])).rows.map((row) => row.id);
        return { ids, ms: performance.now() - start };
      } finally {
        await db.query("ROLLBACK");
      }
    };
    const questions = [...new Set(Array.from({ length: RECALL_QUESTIONS }, (_, i) => realisticQuestion(FLOOR_RECALL_QUESTIONS + i)))];
    const found = new Map(lookUps.map(({ name }) => [name, { share: 0, ms: [] as number[] }]));
    const exactMs: number[] = [];
    for (const question of questions) {
      const vector = toVectorLiteral(await embeddings.embedQuery(question));
      const truth = await inTransaction([], exact, vector);
      exactMs.push(truth.ms);
      for (const { name, settings } of lookUps) {
        const { ids, ms } = await inTransaction(settings, nearest, vector);
        const tally = found.get(name)!;
        tally.share += shareFound(ids, truth.ids);
        tally.ms.push(ms);
      }
    }
    console.log(`\n${questions.length} questions | recall@10 | median ms\n--- | --- | ---`);
    for (const [name, { share, ms }] of found) console.log(`${name} | ${(share / questions.length).toFixed(3)} | ${median(ms).toFixed(2)}`);
    console.log(`exact scan | 1.000 | ${median(exactMs).toFixed(2)}`);
  } finally {
    await db.query(`DROP INDEX IF EXISTS ${INDEX}`).catch(() => undefined);
    await embeddings.close();
    await db.end();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
