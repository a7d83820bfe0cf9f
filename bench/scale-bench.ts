import os from "node:os";
import { postgresDatabase, type Database } from "../src/db/database";
import { migrateDatabase } from "../src/db/database-readiness";
import { LocalEmbeddings } from "../src/embeddings/local-embeddings";
import { maintainSearchNow } from "../src/indexing/search-maintenance";
import { resetPostgres } from "./pipeline-bench";
import { ConfigError, plansOf, readConfig, type ScaleConfig } from "./scale/config";
import { buildCorpus, type Corpus } from "./scale/corpus";
import { ANALYST_QUESTIONS } from "./scale/questions";
import { CONTENT_HEADERS, contentRow, recreateDatabaseBeside, relationSizes, serverVersions, shardPlacements } from "./scale/databases";
import { startApp, type BenchApp } from "./scale/measure";
import { measureColumnRecall, measureRecall, NEAREST_ASKED, sweepProbes, type RecallRow } from "./scale/recall";
import { ms, seconds, table, Targets, thousands } from "./scale/report";
import { measureConcurrent, measureEndpoint, type Case } from "./scale/search-cases";
import { seedDatabase, vacuumAnalyze, type CorpusVectors, type SeededWorkspace, type WorkspacePlan } from "./scale/seed";
import { startWorkerProcess } from "./server-process";
import { idleWorkerReport, measureIdleWorker } from "./scale/idle-worker";
import { measureWrites } from "./scale/writes";
import { measureWordCounts } from "./scale/word-counts";
import { indexBuildsReport, serverMaintenanceMemory } from "./scale/index-builds";

// `npm run bench:scale` (never part of `npm test`): does search stay fast and right when one
// database holds many workspaces and one of them is large? One PostgreSQL database holds a
// 100,000-artifact workspace, a hundred of 1,000 and a few of the sizes around the search's
// thresholds; a second database on the same server holds one 1,000-artifact workspace alone, the
// baseline every figure is divided by. BENCH_DATABASE_URL's public schema is dropped. Tables go to
// stdout, progress to stderr.

const progress = (message: string) => console.error(`[scale] ${message}`);

/** The model's vectors of every template and word, in batches on the index threads. */
async function embedAll(embeddings: LocalEmbeddings, texts: string[]): Promise<number[][]> {
  const batches = [];
  for (let start = 0; start < texts.length; start += 64) batches.push(embeddings.embed(texts.slice(start, start + 64)));
  return (await Promise.all(batches)).flat();
}

type Phase = <T>(name: string, work: () => Promise<T>) => Promise<T>;

/** A clean schema, the seeded rows, the service's own search upkeep, fresh statistics. */
async function prepareDatabase(url: string, label: string, plans: WorkspacePlan[], corpus: Corpus, vectors: CorpusVectors, phase: Phase, onOpen: (database: Database) => void) {
  await phase(`${label}: migrate`, () => resetPostgres(url, { distribute: false }));
  const { workspaces, timings } = await phase(`${label}: seed`, () => seedDatabase(url, plans, corpus, vectors));
  progress(`${label}: rows ${seconds(timings.rowsMs)}, indexes ${seconds(timings.indexesMs)}`);
  // On a Citus coordinator the rows were written to its own tables, as on one server: `npm run
  // migrate` now distributes them (nothing to do elsewhere).
  let distributed: string[] = [];
  const distributeMs = await phase(`${label}: npm run migrate (distribute)`, async () => {
    const started = performance.now();
    await migrateDatabase(url, { onDistributed: (tables) => (distributed = tables) });
    return performance.now() - started;
  });
  if (distributed.length > 0) timings.distributeMs = distributeMs;
  const database = postgresDatabase(url);
  onOpen(database);
  // At the server's own maintenance_work_mem: each build raises its session's for itself.
  const setting = await serverMaintenanceMemory(url);
  const built = await phase(`${label}: maintainSearchNow`, () => maintainSearchNow(database));
  console.log(`\n${indexBuildsReport(label, setting, built, new Map(workspaces.map((workspace) => [workspace.id, workspace.name])))}\n`);
  await phase(`${label}: VACUUM ANALYZE`, () => vacuumAnalyze(url));
  return { database, workspaces, timings };
}

async function run(config: ScaleConfig, closers: Array<() => Promise<unknown>>): Promise<void> {
  const phases: Array<[string, number]> = [];
  const phase: Phase = async (name, work) => {
    progress(`${name} …`);
    const started = performance.now();
    try {
      return await work();
    } finally {
      phases.push([name, performance.now() - started]);
      progress(`${name}: ${seconds(performance.now() - started)}`);
    }
  };
  const plans = plansOf(config);
  const targets = new Targets();
  const embeddings = new LocalEmbeddings();
  closers.push(() => embeddings.close());
  const corpus = buildCorpus();
  const vectors = await phase("embed templates and words", async () => ({
    model: embeddings.model,
    templates: await embedAll(embeddings, corpus.templates.map((template) => template.text)),
    words: await embedAll(embeddings, corpus.words.words),
  }));

  const seedStarted = performance.now();
  const big = await prepareDatabase(config.databaseUrl, "big database", plans.big, corpus, vectors, phase, (database) => closers.push(() => database.close()));
  const baselineUrl = await recreateDatabaseBeside(config.databaseUrl, "scale_baseline");
  const alone = await prepareDatabase(baselineUrl, "baseline database", plans.baseline, corpus, vectors, phase, (database) => closers.push(() => database.close()));
  const seedMs = performance.now() - seedStarted;

  const versions = await serverVersions(config.databaseUrl);
  const citus = versions.citus ? `, Citus ${versions.citus} (a coordinator and ${versions.workers} workers)` : "";
  console.log(`## Scale bench: ${os.cpus().length} cores, PostgreSQL ${versions.postgres}, pgvector ${versions.pgvector}${citus}, Node ${process.version}\n`);
  console.log(
    `Seeded in ${seconds(seedMs)} (big: rows ${seconds(big.timings.rowsMs)}, indexes ${seconds(big.timings.indexesMs)}` +
      `${big.timings.distributeMs !== undefined ? `, distributed by npm run migrate in ${seconds(big.timings.distributeMs)}` : ""}; ` +
      `baseline: rows ${seconds(alone.timings.rowsMs)}, indexes ${seconds(alone.timings.indexesMs)}; ` +
      `${corpus.templates.length} template sentences and ${thousands(corpus.words.words.length)} words embedded). ` +
      `Sizes: SCALE_LARGE=${config.large} SCALE_SMALL_COUNT=${config.smallCount} SCALE_SMALL=${config.small} SCALE_RECALL_SIZES=${config.recallSizes.join(",")} ` +
      `SCALE_REQUESTS=${config.requests} SCALE_WARMUP=${config.warmup}.\n`,
  );
  console.log(table(CONTENT_HEADERS, [await contentRow(config.databaseUrl, "big"), await contentRow(baselineUrl, "baseline (alone)")]));
  console.log(`\nBig database, after maintainSearchNow:\n\n${await relationSizes(config.databaseUrl)}\n`);
  const placements = await shardPlacements(config.databaseUrl, big.workspaces);
  if (placements) console.log(`Where the big database's workspaces live (each workspace's rows of every table on one node):\n\n${placements}\n`);

  const bigApp = await startApp(big.database, embeddings);
  closers.push(() => bigApp.close());
  const aloneApp = await startApp(alone.database, embeddings);
  closers.push(() => aloneApp.close());
  // Searches are measured as in production: the Procfile's worker runs on the big database (its
  // indexer's claims, the index upkeep, housekeeping); SCALE_WORKER=off leaves it out.
  let productionWorker = config.worker ? await startWorkerProcess(config.databaseUrl) : undefined;
  const stopProductionWorker = async () => {
    await productionWorker?.stop();
    productionWorker = undefined;
  };
  closers.push(stopProductionWorker);
  if (productionWorker) console.log("The `worker` process runs on the big database while its searches are measured (SCALE_WORKER=off to leave it out).\n");
  const idIn = (workspaces: SeededWorkspace[], plan: WorkspacePlan) => workspaces.find((workspace) => workspace.name === plan.name)!.id;
  const inBig = (plan: WorkspacePlan) => ({ app: bigApp as BenchApp, workspaceId: idIn(big.workspaces, plan), database: "big" as const });
  const baselineCase = (size: number): Case => ({ name: `${thousands(size)} alone (baseline)`, size, app: aloneApp, workspaceId: idIn(alone.workspaces, plans.twin), database: "baseline" });
  const settings = { requests: config.requests, warmup: config.warmup };

  if (config.parts.has("artifacts")) {
    await phase("artifact search", async () => {
      const cases: Case[] = [
        baselineCase(plans.twin.artifacts),
        { name: `${thousands(plans.twin.artifacts)} among others`, size: plans.twin.artifacts, ...inBig(plans.twin), target: { p50: 1.2 } },
        ...[plans.onePastSmall, ...plans.recall].map((plan) => ({ name: thousands(plan.artifacts), size: plan.artifacts, ...inBig(plan) })),
        { name: thousands(plans.large.artifacts), size: plans.large.artifacts, ...inBig(plans.large), target: { p50: 1.5, p95: 2 } },
      ];
      console.log(`\n${await measureEndpoint("artifacts", cases, settings, targets)}\n`);
      console.log(`${await measureConcurrent("artifacts", cases[0]!, cases[cases.length - 1]!, { connections: config.connections, durationMs: config.concurrentMs, rounds: config.concurrentRounds }, targets)}\n`);
    });
  }
  for (const endpoint of ["memories", "patterns"] as const) {
    if (!config.parts.has(endpoint)) continue;
    const sizeOf = (plan: WorkspacePlan) => plan[endpoint];
    await phase(endpoint === "memories" ? "memory recall" : "query intelligence", async () => {
      const cases: Case[] = [
        { ...baselineCase(sizeOf(plans.twin)), size: sizeOf(plans.twin) },
        { name: `${thousands(sizeOf(plans.twin))} among others`, size: sizeOf(plans.twin), ...inBig(plans.twin) },
        { name: thousands(sizeOf(plans.large)), size: sizeOf(plans.large), ...inBig(plans.large), target: { p50: 1.5, p95: 2 } },
      ];
      console.log(`\n${await measureEndpoint(endpoint, cases, settings, targets)}\n`);
    });
  }
  if (config.parts.has("recall")) {
    await phase("vector recall", async () => {
      const questions = await embeddings.embed(ANALYST_QUESTIONS);
      const queries = questions.map((vector) => ({ vector, model: embeddings.model }));
      const recallRow = (row: RecallRow) => {
        const ok = row.recallAt10.mean >= 0.98 && row.recallAt50.mean >= 0.95 && row.fewestRows === row.expectedRows;
        return [
          thousands(row.artifacts), row.strategies.join(", "), `${row.recallAt10.mean.toFixed(3)} / ${row.recallAt10.worst.toFixed(2)}`,
          `${row.recallAt50.mean.toFixed(3)} / ${row.recallAt50.worst.toFixed(2)}`, `${row.fewestRows} / ${row.expectedRows}`, ms(row.nearestP50), ms(row.exactP50),
          targets.check(`recall at ${thousands(row.artifacts)} ${row.name}`, ok),
        ];
      };
      const headers = (rows: string) => [rows, "strategy", "recall@10 mean / worst", `recall@${NEAREST_ASKED} mean / worst`, "rows: fewest / asked", "nearest p50", "exact scan p50", "✔/✘"];
      const measured = [plans.twin, plans.onePastSmall, ...plans.recall, plans.large].sort((a, b) => a.artifacts - b.artifacts);
      const rows = [];
      for (const plan of measured) rows.push(recallRow(await measureRecall(big.database, { name: "artifacts", id: idIn(big.workspaces, plan), artifacts: plan.artifacts }, queries)));
      console.log(`\n### Vector path recall, \`nearest\` vs an exact scan, ${queries.length} real questions a size (big database)\n\n${table(headers("artifacts"), rows)}\n`);
      const columnRows = [];
      for (const tableName of ["memories", "query_patterns"] as const) {
        for (const plan of [plans.twin, plans.large]) {
          const size = tableName === "memories" ? plan.memories : plan.patterns;
          columnRows.push([tableName, ...recallRow(await measureColumnRecall(big.database, tableName, { name: tableName, id: idIn(big.workspaces, plan), rows: size }, queries))]);
        }
      }
      console.log(`Memories and query patterns, the same questions:\n\n${table(["table", ...headers("rows")], columnRows)}\n`);
      console.log("Targets: recall@10 ≥ 0.98 and recall@50 ≥ 0.95 (means), and every query given all the rows asked.\n");
      if (config.probeSweep.length > 0) {
        const large = { id: idIn(big.workspaces, plans.large), plan: plans.large };
        console.log(`${await sweepProbes(big.database, large.id, config.probeSweep, async (table) =>
          table === "artifact_embeddings"
            ? measureRecall(big.database, { name: "artifacts", id: large.id, artifacts: large.plan.artifacts }, queries)
            : measureColumnRecall(big.database, table, { name: table, id: large.id, rows: table === "memories" ? large.plan.memories : large.plan.patterns }, queries),
        )}\n`);
      }
    });
  }
  if (config.parts.has("writes")) {
    await phase("writes", async () => {
      const baseline = { name: `${thousands(plans.twin.artifacts)}-artifact workspace`, app: aloneApp, workspaceId: idIn(alone.workspaces, plans.twin) };
      const large = { name: `the ${thousands(plans.large.artifacts)}-artifact workspace`, ...inBig(plans.large) };
      console.log(`\n${await measureWrites(baseline, large, config, targets)}\n`);
    });
  }
  if (config.parts.has("writes")) {
    await phase("word counts", async () => {
      console.log(`\n${await measureWordCounts(config.databaseUrl, { name: `the ${thousands(plans.twin.artifacts)}-artifact workspace`, id: idIn(big.workspaces, plans.twin) }, plans.twin.artifacts, targets)}\n`);
    });
  }
  if (config.parts.has("idle")) {
    // The idle figures are the worker's own, measured alone.
    await stopProductionWorker();
    await phase("idle worker", async () => console.log(`\n${idleWorkerReport(await measureIdleWorker(config.databaseUrl), targets)}\n`));
  }
  console.log(`\n### Phases\n\n${table(["phase", "time"], phases.map(([name, elapsed]) => [name, seconds(elapsed)]))}\n`);
  console.log(targets.summary());
}

async function main(): Promise<void> {
  let config: ScaleConfig;
  try {
    config = readConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`bench:scale: ${error.message}`);
    process.exitCode = 1;
    return;
  }
  const closers: Array<() => Promise<unknown>> = [];
  try {
    await run(config, closers);
  } finally {
    for (const close of closers.reverse()) await close().catch((error: unknown) => progress(`while closing: ${String(error)}`));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
