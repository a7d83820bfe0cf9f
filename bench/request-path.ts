// The request-path bench (`npm run bench:request-path`): what a client of the service sees on the
// real request path, beside floors that do the least work that can answer the same requests, on
// the same engine and data, in the same run. Ratios against floors of the same run are the figures
// to read: the machine is small and shared, and absolute milliseconds move from run to run.
//
// What it measures, for each engine (embedded PGlite; PostgreSQL with BENCH_DATABASE_URL, whose
// public schema it drops) and each size (BENCH_SIZES, artifacts, default 1000,10000):
//
// - The service as `npm start` runs it: `npm run build` once, then `node dist/server.js` in a
//   process of its own, default settings (LOG_LEVEL info, its logs written to a file, not
//   silenced), only the rate limits set beyond reach (RATE_LIMIT_PER_KEY, _PER_ADDRESS,
//   _AUTH_FAILURES; the limiters still run). Embedded: a fresh data directory, the admin token
//   read from the first run's banner. PostgreSQL: ADMIN_TOKEN, PUBLIC_BASE_URL, SIGNING_SECRET
//   set, as a deployment must.
// - A realistic workspace (tests/support/realistic-workspace.ts: artifacts with element-tree bodies
//   of about 3 KB, 200 memories, a data source with proven SQL), imported through the admin API in
//   parts under the 1 MB body limit, then indexed until the admin index state has nothing pending
//   (and, past OWN_INDEX_MIN_VECTORS, until the service's own vector index for the workspace is
//   built). The service's own model makes every vector, except from BENCH_POOL_FROM (10,000)
//   artifacts on: there the artifacts are imported by a service that is then stopped (on
//   PostgreSQL started with INDEXER=worker, so nothing embeds them; the embedded engine's service
//   indexes itself, and what its model made before it stopped is kept), the real model embeds the
//   real texts of the rows of a few hundred of them (about BENCH_POOL_TEXTS = 2,000 texts, one artifact per subject) in this
//   process (on two model threads at normal priority), and SQL writes every artifact vector from
//   that pool: each artifact gets the vectors of the pooled artifact on the same metric, segment
//   and region (else metric and region), plus noise (request-path/seed.ts, fillFromPool). The vectors are the model's, of texts on the same
//   subject, not of each row's own text; the output says so. On the embedded engine the SQL runs
//   in this process on the data directory while no service runs on it (one owner at a time).
// - A stream of natural-language questions from realisticQuestion(n), made from the workspace's
//   own words, one in five a repeat of an earlier one by design (the measured repeat rate of each
//   stream as asked is printed): the service and the search floor are each asked it from its
//   start, in order, the 32-connection figure continuing where the 1-connection one stopped.
// - Load from another process: autocannon (request-path/load-client.ts), every request built as
//   it is sent (a new question, the next artifact id, a new artifact to push); 1 and 32
//   connections, BENCH_SECONDS (10) each, after a short warm-up (BENCH_WARMUP_SECONDS, 2) on
//   requests outside the measured stream. Reported: p50, p95 (and p90 for search), requests a
//   second, and the server process's CPU per request (its /proc utime + stime over the figure,
//   every thread: request path, model, embedded database, background work, divided by the
//   requests answered). Any answer other than 2xx fails the run (exit code 1), after the tables.
//   Search answers ranked by words alone (X-Search-Mode: lexical, when the query's vector came
//   past the service's budget) are counted and flagged.
// - Push: POST /api/v1/artifacts with a realistic artifact at 1 connection, p50 (target ≤ 5 ms),
//   in the last round only, after its other figures, so that every other figure reads the workspace
//   as it was seeded (a draft is not embedded until its validation, so nothing runs after it). The
//   push floor is asked the same artifacts.
// - Freshness, where the service's own model embeds the import: how long after the import answered
//   every artifact is findable by meaning (the admin index state's `unfindable` of artifacts at 0:
//   every headline vector made; target ≤ 30 s for 1,000), then a search figure at 1 connection
//   while the service still embeds the rest (bodies, chunks), on questions outside the measured
//   stream, against the idle figure measured later: p50 busy ÷ idle (target ≤ 2×), and every
//   answer by meaning (X-Search-Mode: hybrid).
//
// Rounds (BENCH_ROUNDS, 3): the service's figures, then the floors' on the same data with the
// service stopped (2 cores; the embedded engine has one owner), then again with a service started
// afresh. This machine's speed drifts from minute to minute, so one round's ratio moved by a third
// from run to run: each ratio reported is the median of its rounds' (the table shows each
// figure's median round, and the notes every round's ratio).
//
// The floors, each a bare node:http server in a process of its own:
// - fetch floor (request-path/fetch-floor.ts): `GET /a/:id` answers `row_to_json(a)::text` of
//   the artifact's row (its stored columns, less the two derived for search that no answer shows:
//   body_text and the search_document tsvector), one named SQL statement (prepared once, as the
//   service's fetch is) through the same driver (`pg` with the service's default pool size;
//   PGlite opened on the service's data directory as the service opens it). No framework,
//   authentication, validation or schema: any fetch by id must at least parse the request, read
//   the row by its key and write its bytes, and the database makes the JSON. The mean bytes of
//   both answers are printed. `POST /p` is the push floor: the pushed JSON stored in one named
//   statement in a table of the floor's own (id, workspace, the body as `json`), its id answered;
//   none of what the service derives from a push (the headline's search document; a body's
//   prose and chunks, its vector rows and its memory-bank entry wait for its validation). The push
//   target is in milliseconds; the floor says how fast this machine stored a push in the same run.
// - search floor (request-path/search-floor.ts): embeds the question with the same model on the
//   same query lane (LocalEmbeddings.embedQuery, no time budget), reads the 10 nearest vectors of
//   the workspace's searchable rows through an HNSW index it builds itself (dropped on exit), and
//   answers their artifact ids. Any search by meaning must at least embed the question and look
//   up its neighbours; the floor reads no words, fuses nothing, reads no artifact rows. It says
//   how much of the exact 10 nearest its index finds (recall@10 against an exact scan, on 40
//   questions of their own), printed with the results: a floor that answers worse than the
//   service is held to (0.99) does less than the same work.
//
// Ratios, one direction each: latency ratio = service p50 ÷ floor p50 (lower is better),
// throughput ratio = service req/s ÷ floor req/s (higher is better). Targets: fetch throughput
// ≥ 0.7× at 1 and 32 connections; search at 1 connection p50 ≤ 2× and p90 ≤ 2.5× the floor's
// (both ≤ 3× at 100,000 artifacts); push p50 ≤ 5 ms. Processes run on BENCH_NODE
// (a path to a node binary; Node 24, the runtime to target, when this one is older), else on this
// node. Never part of `npm test`.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { resetPostgres } from "./pipeline-bench";
import { settings } from "./request-path/config";
import { startFloor } from "./request-path/floors";
import { measure, type Measured } from "./request-path/load";
import type { LoadSpec } from "./request-path/load-client";
import { describeRepeats, repeatRate, WARMUP_QUESTIONS } from "./request-path/questions";
import { table, TARGETS, type Pair } from "./request-path/report";
import { buildService, startService, type Service } from "./request-path/server";
import { createKey, fillFromPool, importWorkspace, indexState, waitDrained, waitFindable, waitOwnIndex } from "./request-path/seed";
import { stopAll, type LoggedProcess } from "./request-path/processes";

type Engine = "embedded" | "postgres";

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const log = (line: string) => console.log(line);

/** Problems that fail the run once every table is printed. */
const failures: string[] = [];

function checkAnswers(what: string, m: Measured) {
  if (m.answered === 0) failures.push(`${what}: no answer within the figure's ${settings.seconds} s`);
  if (m.non2xx > 0 || m.errors > 0) failures.push(`${what}: ${m.non2xx} answers other than 2xx (${JSON.stringify(m.statuses)}), ${m.errors} errors (${m.timeouts} timeouts) of ${m.answered}`);
}

/** A shuffled copy (the same order every run), so that fetches do not walk the ids in write order. */
function shuffled<T>(items: T[]): T[] {
  const copy = [...items];
  let seed = 12345;
  for (let i = copy.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const j = seed % (i + 1);
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

async function warmUp(server: LoggedProcess, spec: Omit<LoadSpec, "connections" | "seconds">) {
  if (settings.warmupSeconds > 0) await measure(server, { ...spec, connections: 4, seconds: settings.warmupSeconds });
}

/** Questions asked while the service indexes come from here on: outside the measured stream, so its cache of query vectors holds none of the idle figure's. */
const BUSY_QUESTIONS = 2_000_000;

const pendingVectors = async (service: Service, workspaceId: string) =>
  Object.values((await indexState(service, workspaceId)).tables).reduce((sum, table) => sum + table.pending, 0);

/** One search figure at 1 connection while the indexer works through the rest of the backlog (with a key of its own). */
async function searchWhileIndexing(service: Service, workspaceId: string) {
  const headers = { authorization: `Bearer ${await createKey(service, workspaceId)}` };
  const pendingBefore = await pendingVectors(service, workspaceId);
  const figure = await measure(service.process, { base: service.base, headers, target: "service", kind: "search", firstQuestion: BUSY_QUESTIONS, connections: 1, seconds: settings.seconds });
  const pendingAfter = await pendingVectors(service, workspaceId);
  if (pendingAfter === 0) failures.push(`search while indexing: the backlog was gone before the figure ended (${pendingBefore} vectors pending at its start)`);
  return { figure, pendingBefore, pendingAfter };
}

interface Round {
  pairs: Pair[];
  /** The last round's only: what it pushes is embedded after it, which would load any figure after it. */
  push?: Pair;
  /** The first questions of the stream not asked of the service, and of the search floor. */
  serviceStreamAt: number;
  floorStreamAt: number;
  floorNote: string;
  warnings: string[];
}

/** The ratio a figure is judged by: fetch by throughput (higher is better), search and push by p50 (lower is better). */
const ratioOf = (pair: Pair) => (pair.kind === "fetch" ? pair.service.perSecond / pair.floor.perSecond : pair.service.p50 / pair.floor.p50);

/** The item whose value is the median of the items' (an odd number of them: BENCH_ROUNDS). */
function medianRound<T>(items: T[], value: (item: T) => number): T {
  return [...items].sort((a, b) => value(a) - value(b))[(items.length - 1) / 2]!;
}

/** One round: the service's figures (then it is stopped), and its floors' on the same data. */
async function measureRound(
  service: Service,
  auth: Record<string, string>,
  idsFile: string,
  context: { size: number; round: number; title: string; workspaceId: string; database: { databaseUrl?: string; dataDir: string }; logFile: (name: string) => string },
): Promise<Round> {
  const { size, round, title, workspaceId, database, logFile } = context;
  const serviceFigures: Record<string, Measured> = {};
  let streamAt = 0;
  let push: Measured | undefined;
  try {
    const base = { base: service.base, headers: auth, target: "service" as const };
    await warmUp(service.process, { ...base, kind: "fetch", idsFile });
    for (const connections of [1, 32]) {
      serviceFigures[`fetch ${connections}`] = await measure(service.process, { ...base, kind: "fetch", idsFile, connections, seconds: settings.seconds });
      log(`  service fetch, ${connections} conn: ${serviceFigures[`fetch ${connections}`]!.perSecond.toFixed(0)} req/s`);
    }
    await warmUp(service.process, { ...base, kind: "search", firstQuestion: WARMUP_QUESTIONS });
    for (const connections of [1, 32]) {
      const m = await measure(service.process, { ...base, kind: "search", firstQuestion: streamAt, connections, seconds: settings.seconds });
      serviceFigures[`search ${connections}`] = m;
      log(`  service search, ${connections} conn: ${m.perSecond.toFixed(1)} req/s, questions ${streamAt}–${m.nextQuestion - 1}`);
      streamAt = m.nextQuestion;
    }
    if (round === settings.rounds - 1) {
      push = await measure(service.process, { ...base, kind: "push", firstArtifact: size, connections: 1, seconds: settings.seconds });
      log(`  service push, 1 conn: p50 ${push.p50.toFixed(2)} ms`);
    }
  } finally {
    const code = await service.process.stop();
    if (code !== 0) failures.push(`${title}: the service exited with code ${code} on SIGTERM (log: ${service.process.logFile})`);
  }
  const serviceErrors = (service.process.log().match(/"level":50/g) ?? []).length;
  const warnings = serviceErrors > 0 ? [`⚠ the service logged ${serviceErrors} errors (level 50) in round ${round + 1}: see ${service.process.logFile}`] : [];

  const floorFigures: Record<string, Measured> = {};
  const fetchFloor = await startFloor("fetch", database, workspaceId, logFile(`fetch-floor-${round + 1}`));
  try {
    const base = { base: fetchFloor.base, headers: {}, target: "floor" as const };
    await warmUp(fetchFloor.process, { ...base, kind: "fetch", idsFile });
    for (const connections of [1, 32]) floorFigures[`fetch ${connections}`] = await measure(fetchFloor.process, { ...base, kind: "fetch", idsFile, connections, seconds: settings.seconds });
    if (push) floorFigures.push = await measure(fetchFloor.process, { ...base, kind: "push", firstArtifact: size, connections: 1, seconds: settings.seconds });
  } finally {
    await fetchFloor.process.stop();
  }
  const searchFloor = await startFloor("search", database, workspaceId, logFile(`search-floor-${round + 1}`));
  try {
    const base = { base: searchFloor.base, headers: {}, target: "floor" as const };
    await warmUp(searchFloor.process, { ...base, kind: "search", firstQuestion: WARMUP_QUESTIONS });
    floorFigures["search 1"] = await measure(searchFloor.process, { ...base, kind: "search", firstQuestion: 0, connections: 1, seconds: settings.seconds });
    floorFigures["search 32"] = await measure(searchFloor.process, { ...base, kind: "search", firstQuestion: floorFigures["search 1"].nextQuestion, connections: 32, seconds: settings.seconds });
  } finally {
    await searchFloor.process.stop();
  }
  const pairs: Pair[] = [];
  for (const kind of ["fetch", "search"] as const) {
    for (const connections of [1, 32]) pairs.push({ kind, connections, service: serviceFigures[`${kind} ${connections}`]!, floor: floorFigures[`${kind} ${connections}`]! });
  }
  const pushPair: Pair | undefined = push && { kind: "push", connections: 1, service: push, floor: floorFigures.push! };
  return { pairs, push: pushPair, serviceStreamAt: streamAt, floorStreamAt: floorFigures["search 32"].nextQuestion, floorNote: searchFloor.note, warnings };
}

async function runCase(engine: Engine, size: number, runDir: string): Promise<string[]> {
  const caseStarted = performance.now();
  const dir = path.join(runDir, `${engine}-${size}`);
  const dataDir = path.join(dir, "data");
  const logFile = (name: string) => path.join(dir, `${name}.log`);
  execFileSync("mkdir", ["-p", dir]);
  const databaseUrl = engine === "postgres" ? settings.databaseUrl! : undefined;
  const title = `${engine === "postgres" ? "PostgreSQL" : "embedded (PGlite)"}, ${size.toLocaleString("en")} artifacts`;
  log(`\n## ${title}\n`);
  const notes: string[] = [];
  if (databaseUrl) await resetPostgres(databaseUrl);

  // 1. The workspace, indexed.
  let service: Service;
  let imported: Awaited<ReturnType<typeof importWorkspace>>;
  /** Search at 1 connection while the service embeds the imported artifacts' other vectors. */
  let busySearch: { figure: Measured; pendingBefore: number; pendingAfter: number } | undefined;
  const pool = size >= settings.poolFrom;
  if (pool) {
    // On PostgreSQL nothing embeds the import meanwhile (INDEXER=worker, no worker); the embedded
    // engine's service always indexes itself, and what its model made before it stopped is kept.
    const seeding = await startService({ databaseUrl, dataDir, logFile: logFile("service-seeding"), env: databaseUrl ? { INDEXER: "worker" } : {} });
    try {
      imported = await importWorkspace(seeding, size, log);
    } finally {
      await seeding.process.stop();
    }
    notes.push(`import: ${size} artifacts through the admin API in ${seconds(imported.importMs)} (${databaseUrl ? "a service with INDEXER=worker: nothing embedded meanwhile" : "the service stopped once it answered"})`);
    notes.push(await fillFromPool({ databaseUrl, dataDir }, imported.workspaceId, log));
    service = await startService({ databaseUrl, dataDir, logFile: logFile("service") });
    const drained = await waitDrained(service, imported.workspaceId, performance.now(), log);
    notes.push(`the service's model made the remaining vectors (memories, query patterns) in ${seconds(drained.ms)}; ${drained.vectors} vectors in all`);
  } else {
    service = await startService({ databaseUrl, dataDir, logFile: logFile("service") });
    const since = performance.now();
    imported = await importWorkspace(service, size, log);
    const answeredAt = performance.now();
    notes.push(`import: ${size} artifacts through the admin API in ${seconds(imported.importMs)}`);
    const findable = await waitFindable(service, imported.workspaceId, answeredAt);
    const findableTarget = size <= 1_000 ? `; ${findable.ms <= TARGETS.findableSeconds * 1000 ? "✔" : "✘"} ≤ ${TARGETS.findableSeconds} s for 1,000` : "";
    notes.push(`every artifact findable by meaning (its headline vector made) ${seconds(findable.ms)} after the import answered${findableTarget}; ${findable.pending} vectors still to make then`);
    busySearch = await searchWhileIndexing(service, imported.workspaceId);
    const drained = await waitDrained(service, imported.workspaceId, since, log);
    notes.push(`the service's model made every vector in ${seconds(drained.ms)} from the import's start (${drained.vectors} vectors, ${((size / drained.ms) * 1000).toFixed(1)} artifacts/s)`);
  }
  notes.push(`search in the service: ${await waitOwnIndex(service, imported.workspaceId, engine)}`);
  const key = await createKey(service, imported.workspaceId);
  const auth = { authorization: `Bearer ${key}` };
  const idsFile = path.join(dir, "ids.json");
  writeFileSync(idsFile, JSON.stringify(shuffled(imported.artifactIds)));
  for (const note of notes) log(`- ${note}`);

  // 2. Rounds of the service's figures, then the floors' on the same data with the service
  // stopped; the first round's service is the one that indexed, the others start afresh.
  const rounds: Round[] = [];
  for (let round = 0; round < settings.rounds; round++) {
    if (round > 0) service = await startService({ databaseUrl, dataDir, logFile: logFile(`service-round-${round + 1}`) });
    log(`  round ${round + 1} of ${settings.rounds}`);
    const measured = await measureRound(service, auth, idsFile, { size, round, title, workspaceId: imported.workspaceId, database: { databaseUrl, dataDir }, logFile });
    rounds.push(measured);
    if (round === 0) notes.push(`search floor: ${measured.floorNote}`);
    notes.push(...measured.warnings);
  }

  // 3. The table: each figure from the round whose ratio is the median of its rounds'.
  const pairs = rounds[0]!.pairs.map((_, index) => medianRound(rounds.map((r) => r.pairs[index]!), ratioOf));
  const push = rounds[rounds.length - 1]!.push!;
  for (const [index, round] of rounds.entries()) {
    for (const pair of round.pairs) {
      checkAnswers(`${title}, round ${index + 1}, service ${pair.kind} ${pair.connections} conn`, pair.service);
      checkAnswers(`${title}, round ${index + 1}, floor ${pair.kind} ${pair.connections} conn`, pair.floor);
    }
  }
  checkAnswers(`${title}, service push`, push.service);
  checkAnswers(`${title}, floor push`, push.floor);
  notes.push(
    `ratios by round (the table shows each figure's median round): ${rounds[0]!.pairs
      .map((pair, index) => `${pair.kind} ${pair.connections} conn ${rounds.map((r) => ratioOf(r.pairs[index]!).toFixed(2)).join(", ")}`)
      .join("; ")}; push ${ratioOf(push).toFixed(2)} (the last round only)`,
  );
  const figureOf = (kind: Pair["kind"], connections: number) => pairs.find((pair) => pair.kind === kind && pair.connections === connections)!;
  if (busySearch) {
    const busy = busySearch.figure;
    const idle = figureOf("search", 1).service;
    checkAnswers(`${title}, service search while indexing`, busy);
    const ratio = busy.p50 / idle.p50;
    const lexical = busy.answered - (busy.searchModes.hybrid ?? 0);
    notes.push(
      `search at 1 conn while the service embedded the rest (${busySearch.pendingBefore} → ${busySearch.pendingAfter} vectors pending): p50 ${busy.p50.toFixed(1)} ms, p95 ${busy.p95.toFixed(1)} ms, ` +
        `${(busy.answered / settings.seconds).toFixed(1)} req/s; busy ÷ idle p50 ${ratio.toFixed(2)}× (${ratio <= TARGETS.busySearchP50 ? "✔" : "✘"} ≤ ${TARGETS.busySearchP50}×); ` +
        `${lexical === 0 ? "✔ every answer hybrid" : `✘ ${lexical} of ${busy.answered} answers not hybrid`}`,
    );
  }
  // Every round asks the same stream from its start, of the service and of the floor.
  notes.push(`questions asked of the service in a round: ${describeRepeats(repeatRate([[0, Math.max(...rounds.map((r) => r.serviceStreamAt))]]))}`);
  notes.push(`questions asked of the search floor in a round: ${describeRepeats(repeatRate([[0, Math.max(...rounds.map((r) => r.floorStreamAt))]]))}`);
  const modes = (m: Measured) => Object.entries(m.searchModes).map(([mode, count]) => `${count} ${mode}`).join(", ");
  notes.push(`service search answers by X-Search-Mode: 1 conn ${modes(figureOf("search", 1).service)}; 32 conn ${modes(figureOf("search", 32).service)}`);
  notes.push(`server CPU (cores busy on average), service / floor: ${pairs.map((p) => `${p.kind} ${p.connections} conn ${p.service.cores.toFixed(2)} / ${p.floor.cores.toFixed(2)}`).join("; ")}; push ${push.service.cores.toFixed(2)} / ${push.floor.cores.toFixed(2)}`);
  notes.push(`this case took ${seconds(performance.now() - caseStarted)}`);
  notes.push(`mean answer bytes, service / floor: ${pairs.filter((p) => p.connections === 1).map((p) => `${p.kind} ${p.service.meanBytes.toFixed(0)} / ${p.floor.meanBytes.toFixed(0)}`).join("; ")}`);
  const { lines } = table(size, pairs, push);
  // Printed now too, so that a later case's failure does not lose it.
  log(["", ...lines, ""].join("\n"));
  return [`### ${title}`, "", ...lines, "", ...notes.map((note) => `- ${note}`), ""];
}

async function main() {
  const started = performance.now();
  const nodeVersion = execFileSync(settings.node, ["--version"], { encoding: "utf8" }).trim();
  log(`# Request-path bench`);
  log("");
  log(`sizes ${settings.sizes.join(", ")} artifacts; engines ${settings.engines.join(", ")}; ${settings.seconds} s a figure; processes on Node ${nodeVersion} (${settings.node}); ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  log(`questions: realisticQuestion(n), one in five asked again by design; the first 10,000 of the stream: ${describeRepeats(repeatRate([[0, 10_000]]))}`);
  const buildMs = await buildService();
  log(`npm run build: ${seconds(buildMs)}`);
  const runDir = mkdtempSync(path.join(os.tmpdir(), "request-path-"));
  log(`logs and data directories: ${runDir}${settings.keepLogs ? "" : " (removed at the end; BENCH_KEEP_LOGS=1 keeps them)"}`);
  const tables: string[] = [];
  let finished = false;
  try {
    for (const engine of settings.engines) {
      for (const size of settings.sizes) tables.push(...(await runCase(engine, size, runDir)));
    }
    finished = true;
  } catch (error) {
    if (tables.length > 0) log(`\n# Results before the failure\n\n${tables.join("\n")}`);
    log(`logs kept in ${runDir}`);
    throw error;
  } finally {
    if (finished && !settings.keepLogs && failures.length === 0) rmSync(runDir, { recursive: true, force: true });
  }
  log("\n# Results\n");
  log(tables.join("\n"));
  log(`Whole run: ${seconds(performance.now() - started)}.`);
  if (failures.length > 0) {
    console.error(`\nFAILED: answers other than 2xx, or a process that did not stop cleanly (logs kept in ${runDir}):\n${failures.map((f) => `- ${f}`).join("\n")}`);
    process.exit(1);
  }
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    console.error(`${signal}: stopping the processes the bench started`);
    void stopAll().finally(() => process.exit(130));
  });
}

main().catch(async (error: unknown) => {
  console.error(error);
  await stopAll();
  process.exit(1);
});
