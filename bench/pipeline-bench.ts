import type { AddressInfo } from "node:net";
import os from "node:os";
import { Client } from "pg";
import { buildApp } from "../src/app";
import { BENCH_RATE_LIMITS } from "./bench-rate-limits";
import { embeddedDatabase, postgresDatabase, type Database } from "../src/db/database";
import { openMemoryDatabase } from "../src/db/embedded-database";
import { migrateDatabase } from "../src/db/database-readiness";
import { createEmptyDatabase, dropDatabase, isCitusServer } from "../tests/support/postgres-server";
import { applyMigrations } from "../src/db/migrations";
import { LocalEmbeddings } from "../src/embeddings/local-embeddings";
import { systemClock } from "../src/lib/clock";
import { createLogger } from "../src/lib/logger";
import { createServices } from "../src/services";
import { backToBack, median } from "./load";
import { startServerProcess, type ServerProcess } from "./server-process";
import { postgresExecutor } from "../src/db/postgres-executor";

// Issue figures, one database per run: indexing throughput, reads while a backlog is embedded,
// push latency, SIGTERM-to-exit with a backlog. Request rates against bare floors are the
// request-path bench's (bench/request-path.ts), whose floors do the least work a request needs.

const ARTIFACTS = Number(process.env.BENCH_ARTIFACTS ?? 1000);
const QUERIES = ["enterprise customers are leaving", "advertising costs went up", "sales in Asia", "margins got worse in Europe"];
const METRICS = ["revenue", "churn", "signups", "support tickets", "refunds", "ad spend", "gross margin", "order volume"];
const REGIONS = ["EMEA", "North America", "APAC", "Latin America", "Germany", "Japan", "Brazil", "India"];

/** A Markdown body of ≈ 900 characters: three paragraphs, so three chunks to embed (the cap is 4). */
const body = (n: number) =>
  [
    `## ${METRICS[n % 8]} in ${REGIONS[Math.floor(n / 8) % 8]}`,
    `The ${METRICS[n % 8]} figure for cohort ${n} moved by ${n % 40}% against the previous quarter. ${"Most of the change came from accounts that renewed late. ".repeat(3)}`,
    `Segments moved together: ${"small and mid-sized accounts followed the same curve as the largest ones, with a lag of two weeks. ".repeat(2)}`,
    `Next: compare with the ${REGIONS[(n + 1) % 8]} cohort and check the ${METRICS[(n + 5) % 8]} series for the same weeks.`,
  ].join("\n\n");

/** A realistic artifact: a varied headline, a few hundred characters of explanation, a body. */
export const benchArtifact = (n: number) => ({
  summary: `${METRICS[n % 8]} moved for accounts in ${REGIONS[Math.floor(n / 8) % 8]} (cohort ${n})`,
  why: `The ${METRICS[(n + 3) % 8]} series changed after the ${n % 12 + 1}th release; ${"segments and regions moved together. ".repeat(6)}`,
  recommendation: "Review the pricing page and the onboarding flow.",
  keyFindings: [`${METRICS[n % 8]} changed by ${n % 40}%`, `largest in ${REGIONS[n % 8]}`],
  confidence: 0.7,
  confidenceExplanation: "Twelve months of data",
  content: body(n),
});

const perSecond = (elapsedMs: number) => ((ARTIFACTS / elapsedMs) * 1000).toFixed(1);
const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
const row = (cells: string[]) => `| ${cells.join(" | ")} |`;

/** A fresh in-memory embedded database, or the bench's PostgreSQL server with a clean schema; both migrated. */
export async function openDatabase(url: string | undefined): Promise<Database> {
  if (!url) {
    const embedded = await openMemoryDatabase();
    await applyMigrations(embedded.executor);
    return embeddedDatabase(embedded);
  }
  await resetPostgres(url);
  return postgresDatabase(url);
}

/** A clean, migrated schema on the bench's own server. */
/**
 * An empty, migrated database at `url`. On a Citus coordinator its tables are distributed, unless
 * `distribute` is false: the scale bench seeds the coordinator's own tables and distributes after,
 * as an operator moving a database onto Citus does.
 */
export async function resetPostgres(url: string, { distribute = true }: { distribute?: boolean } = {}): Promise<void> {
  if (await isCitusServer(url)) {
    // A Citus database's schema holds the cluster's own objects: the database is made again instead.
    const name = decodeURIComponent(new URL(url).pathname.slice(1));
    await dropDatabase(url, name);
    await createEmptyDatabase(url, name);
  } else {
    const client = new Client({ connectionString: url });
    await client.connect();
    await client.query("DROP SCHEMA public CASCADE; CREATE SCHEMA public;");
    await client.end();
  }
  if (distribute) {
    // What `npm run migrate` does, Citus's distribution included on a Citus coordinator.
    await migrateDatabase(url);
    return;
  }
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await applyMigrations(postgresExecutor(client));
  } finally {
    await client.end();
  }
}

/** Artifacts of a workspace without a headline vector of the model yet: not findable by meaning. */
async function headlinesPending(database: Database, workspaceId: string, model: string): Promise<number> {
  const [{ count }] = await database.prisma.$queryRaw<[{ count: number }]>`
    SELECT count(*)::int AS count FROM artifact_embeddings
    WHERE workspace_id = ${workspaceId} AND facet = 'headline' AND model IS DISTINCT FROM ${model}`;
  return count;
}

export async function runPipelineBench(databaseUrl: string | undefined): Promise<string[]> {
  const kind = databaseUrl ? "PostgreSQL 15" : "embedded (PGlite)";
  const logger = createLogger("silent");
  const database = await openDatabase(databaseUrl);
  const embeddings = new LocalEmbeddings();
  const services = createServices({ database, clock: systemClock, logger, embeddings });
  // The limiters still run on every request (their cost is part of the figures), with budgets no
  // bench run reaches.
  const server = buildApp({ services, logger, rateLimits: BENCH_RATE_LIMITS }).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const quiet = await services.workspaces.create({ name: "bench, no reads" });
  const workspace = await services.workspaces.create({ name: "bench" });
  const key = await services.apiKeys.create(workspace.id, { name: "bench" });
  const auth = { authorization: `Bearer ${key.key}` };
  await Promise.all([embeddings.embed(["warm up"]), embeddings.embedQuery("warm up")]);
  services.indexer.start();

  let q = 0;
  const searchPath = () => `/api/v1/artifacts?query=${encodeURIComponent(QUERIES[q++ % QUERIES.length]!)}&limit=10`;
  const recallPath = () => `/api/v1/memories?query=${encodeURIComponent(QUERIES[q++ % QUERIES.length]!)}`;
  const importBacklog = (workspaceId: string) =>
    services.imports.importDocument(workspaceId, { artifacts: Array.from({ length: ARTIFACTS }, (_, n) => ({ ...benchArtifact(n), status: "validated" as const })) } as never);
  /** Resolves when every imported artifact is findable by meaning, then when every vector is made. */
  const watchBacklog = async (workspaceId: string, since: number) => {
    let searchableMs = 0;
    for (;;) {
      if (!searchableMs && (await headlinesPending(database, workspaceId, embeddings.model)) === 0) searchableMs = performance.now() - since;
      const { tables } = await services.indexer.state(workspaceId);
      if (tables.artifacts.pending + tables.memories.pending === 0) {
        return { searchableMs, indexedMs: performance.now() - since, vectors: tables.artifacts.embedded + tables.memories.embedded };
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  // 1. Import → searchable, nothing else running.
  const quietStarted = performance.now();
  await importBacklog(quiet.id);
  const importMs = performance.now() - quietStarted;
  const quietBacklog = await watchBacklog(quiet.id, quietStarted);

  // 2. Import → searchable again, with searches and recalls answered meanwhile.
  const busyStarted = performance.now();
  const imported = await importBacklog(workspace.id);
  let done = false;
  const busyBacklogDone = watchBacklog(workspace.id, busyStarted).then((figures) => {
    done = true;
    return figures;
  });
  const busySearch = await backToBack(base, auth, searchPath, () => done, 20);
  const busyRecall = await backToBack(base, auth, recallPath, () => done, 20);
  const busyBacklog = await busyBacklogDone;
  const ids = imported.artifactIds;

  // 2. The same reads idle.
  const idleSearch = await backToBack(base, auth, searchPath, () => true, 60);
  const idleRecall = await backToBack(base, auth, recallPath, () => true, 60);

  // 3. Push latency, one connection.
  const pushMs: number[] = [];
  for (let i = 0; i < 100; i++) {
    const sent = performance.now();
    const res = await fetch(`${base}/api/v1/artifacts`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify(benchArtifact(ARTIFACTS + i)),
    });
    await res.arrayBuffer();
    if (res.status !== 201) throw new Error(`push answered ${res.status}`);
    pushMs.push(performance.now() - sent);
  }

  await services.indexer.stop();
  await new Promise((resolve) => server.close(resolve));
  await embeddings.close();
  await database.close();

  // 4. The real entry point, SIGTERM with a backlog.
  const sigterm = await sigtermWithBacklog(databaseUrl);

  const lines = [
    `### ${kind}: ${ARTIFACTS} artifacts, ${os.cpus().length} cores, local model`,
    "",
    row(["figure", "measured", "beside", "ratio"]),
    row(["---", "---", "---", "---"]),
    row(["import request", `${ms(importMs)} ms`, "", `${((ARTIFACTS / importMs) * 1000).toFixed(0)} artifacts/s`]),
    row(["import → searchable (every artifact has a vector)", `${(quietBacklog.searchableMs / 1000).toFixed(1)} s`, "no reads meanwhile", `**${perSecond(quietBacklog.searchableMs)} artifacts/s**`]),
    row(["import → every vector made", `${(quietBacklog.indexedMs / 1000).toFixed(1)} s`, `${quietBacklog.vectors} vectors, no reads meanwhile`, `${perSecond(quietBacklog.indexedMs)} artifacts/s`]),
    row(["the same with back-to-back reads", `${(busyBacklog.searchableMs / 1000).toFixed(1)} s / ${(busyBacklog.indexedMs / 1000).toFixed(1)} s`, "searchable / every vector", `${perSecond(busyBacklog.searchableMs)} / ${perSecond(busyBacklog.indexedMs)} artifacts/s`]),
    row(["search p50 / max while embedding", `${ms(busySearch.p50)} / ${ms(busySearch.max)} ms (${busySearch.count} req)`, `idle ${ms(idleSearch.p50)} / ${ms(idleSearch.max)} ms`, `**${(busySearch.p50 / idleSearch.p50).toFixed(2)}×** idle`]),
    row(["recall p50 / max while embedding", `${ms(busyRecall.p50)} / ${ms(busyRecall.max)} ms (${busyRecall.count} req)`, `idle ${ms(idleRecall.p50)} / ${ms(idleRecall.max)} ms`, `**${(busyRecall.p50 / idleRecall.p50).toFixed(2)}×** idle`]),
    row(["push p50, 1 conn", `**${ms(median(pushMs))} ms**`, "", ""]),
    row(["SIGTERM → exit, backlog pending", `**${(sigterm.exitMs / 1000).toFixed(2)} s**`, `${sigterm.pending} vectors pending`, `exit code ${sigterm.code}`]),
    "",
  ];
  return lines;
}

/** Starts `src/server.ts` as a process, imports a backlog through the admin API, and times SIGTERM to exit. */
async function sigtermWithBacklog(databaseUrl: string | undefined): Promise<{ exitMs: number; code: number | null; pending: number }> {
  if (databaseUrl) await resetPostgres(databaseUrl);
  const server = await startServerProcess(databaseUrl);
  const workspaceId = await importThroughAdmin(server, ARTIFACTS);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const pending = await pendingVectors(server, workspaceId);
  const sent = performance.now();
  const code = await server.stop();
  return { exitMs: performance.now() - sent, code, pending };
}

/** `count` bench artifacts imported through the admin API into a new workspace (or `workspaceId`); its id. */
export async function importThroughAdmin(server: ServerProcess, count: number, workspaceId?: string): Promise<string> {
  const created = workspaceId
    ? { id: workspaceId }
    : ((await (await fetch(`${server.base}/admin/v1/workspaces`, { method: "POST", headers: server.admin, body: JSON.stringify({ name: "backlog" }) })).json()) as { id: string });
  // In requests of 250 artifacts: 1,000 with their bodies are over the import's size limit.
  for (let start = 0; start < count; start += 250) {
    const res = await fetch(`${server.base}/admin/v1/workspaces/${created.id}/import`, {
      method: "POST",
      headers: server.admin,
      body: JSON.stringify({ artifacts: Array.from({ length: Math.min(250, count - start) }, (_, i) => benchArtifact(start + i)) }),
    });
    if (res.status !== 200) throw new Error(`import answered ${res.status}: ${await res.text()}`);
  }
  return created.id;
}

/** Vectors of a workspace still to be made, from the admin API. */
export async function pendingVectors(server: ServerProcess, workspaceId: string): Promise<number> {
  const state = (await (await fetch(`${server.base}/admin/v1/workspaces/${workspaceId}/index`, { headers: server.admin })).json()) as { tables: Record<string, { pending: number }> };
  return Object.values(state.tables).reduce((sum, table) => sum + table.pending, 0);
}
