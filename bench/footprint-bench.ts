import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { distinctQuestion } from "./distinct-questions";
import { backToBack, load } from "./load";
import { importThroughAdmin, pendingVectors, resetPostgres } from "./pipeline-bench";
import { RssSampler } from "./process-memory";
import { SERVER_FROM_SOURCE, startServerProcess, startWorkerProcess, type ServiceProcess } from "./server-process";

// Does it fit the box? Each process type started as the Procfile starts it (its `web:` and
// `worker:` commands, on the compiled build), or, on the embedded database, as `npm run dev` runs
// the server (from source); 1,000 artifacts imported through the admin API and embedded while one
// client searches, then the load of the other benches (searches with distinct questions at 1 and
// 32 connections, fetches by id at 32), and each process's resident set size (VmRSS, sampled from
// /proc every 200 ms) through it, with its high-water mark (VmHWM). Beside the web process, the
// dyno it must fit: 512 MB with the OpenAI provider, 1 GB with the local model.

const ROOT = path.resolve(__dirname, "..");
const ARTIFACTS = Number(process.env.BENCH_ARTIFACTS ?? 1000);
const LOAD_MS = Number(process.env.BENCH_FOOTPRINT_LOAD_MS ?? 10_000);
/** Before "idle" and "after" are read, how long the processes are left alone. */
const SETTLE_MS = 5_000;

type Provider = "local" | "openai";

interface Scenario {
  title: string;
  provider: Provider;
  /** With a worker process: the web process runs INDEXER=worker. */
  worker: boolean;
  /** EMBEDDINGS_INDEX_THREADS of the process that indexes (unset: the default, one per core, at most 2). */
  indexThreads?: number;
  /** From source on the embedded database, as `npm run dev`. */
  dev?: boolean;
}

const POSTGRES_SCENARIOS: Scenario[] = [
  { title: "local model, web + worker", provider: "local", worker: true },
  { title: "local model, web + worker, 1 index thread", provider: "local", worker: true, indexThreads: 1 },
  { title: "local model, web alone", provider: "local", worker: false },
  { title: "local model, web alone, 1 index thread", provider: "local", worker: false, indexThreads: 1 },
  { title: "OpenAI provider, web + worker", provider: "openai", worker: true },
  { title: "OpenAI provider, web alone", provider: "openai", worker: false },
];
const EMBEDDED_SCENARIOS: Scenario[] = [{ title: "embedded database, local model", provider: "local", worker: false, dev: true }];

/** What a web process must fit in. */
const TARGET_MB: Record<Provider, number> = { openai: 512, local: 1024 };

/** node's arguments in the Procfile's command for a process type (`web: node --flag dist/server.js`). */
export function procfileArgs(processType: "web" | "worker"): string[] {
  const line = readFileSync(path.join(ROOT, "Procfile"), "utf8")
    .split("\n")
    .find((entry) => entry.startsWith(`${processType}:`));
  const [command, ...args] = (line ?? "").slice(processType.length + 1).trim().split(/\s+/);
  if (command !== "node" || args.length === 0) throw new Error(`the Procfile has no \`${processType}: node …\` line`);
  return args;
}

interface Measured {
  process: string;
  threads: string;
  /** What the web process served under load (searches at 1 and 32 connections, fetches), per second. */
  served?: string;
  idle: number;
  embedding: number;
  load: number;
  after: number;
  peak: number;
  target?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (value: number) => `${value.toFixed(0)} MB`;

/** The OpenAI-shaped embeddings server (bench/openai-compatible-embeddings.ts) in its own process. */
async function startEmbeddingsServer(): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ["--import", "tsx", "bench/openai-compatible-embeddings.ts"], { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: "" }, stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<string>((resolve, reject) => {
    let output = "";
    child.stdout!.on("data", (chunk) => {
      output += String(chunk);
      const match = /listening on (\d+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once("exit", (code) => reject(new Error(`the embeddings server exited with ${code}`)));
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

async function runScenario(databaseUrl: string | undefined, scenario: Scenario): Promise<Measured[]> {
  if (databaseUrl) await resetPostgres(databaseUrl);
  const embeddingsServer = scenario.provider === "openai" ? await startEmbeddingsServer() : undefined;
  const providerEnv: Record<string, string> = embeddingsServer
    ? { EMBEDDINGS_PROVIDER: "openai", OPENAI_BASE_URL: embeddingsServer.baseUrl, OPENAI_API_KEY: "bench-key-the-local-server-ignores" }
    : { EMBEDDINGS_PROVIDER: "local" };
  const threadsEnv: Record<string, string> = scenario.indexThreads ? { EMBEDDINGS_INDEX_THREADS: String(scenario.indexThreads) } : {};
  const started: ServiceProcess[] = [];
  try {
    const web = await startServerProcess(
      databaseUrl,
      {
        ...providerEnv,
        ...(scenario.worker ? {} : threadsEnv),
        INDEXER: scenario.worker ? "worker" : "in-process",
        // The limits lifted, as in the other benches: the figures measure the service, not its budget.
        RATE_LIMIT_PER_KEY: "100000000",
        RATE_LIMIT_PER_ADDRESS: "100000000",
      },
      scenario.dev ? SERVER_FROM_SOURCE : procfileArgs("web"),
    );
    started.push(web);
    const worker = scenario.worker ? await startWorkerProcess(databaseUrl!, { ...providerEnv, ...threadsEnv }, procfileArgs("worker")) : undefined;
    if (worker) started.push(worker);
    const samplers = [web, ...(worker ? [worker] : [])].map((service) => new RssSampler(service.child.pid!));

    // Idle: started, and one search answered (with the local model, its query thread has loaded).
    const workspaceId = await importThroughAdmin(web, 0);
    const key = (await (await fetch(`${web.base}/admin/v1/workspaces/${workspaceId}/keys`, { method: "POST", headers: web.admin, body: JSON.stringify({ name: "bench" }) })).json()) as { key: string };
    const auth = { authorization: `Bearer ${key.key}` };
    let q = 0;
    const search = () => `/api/v1/artifacts?query=${encodeURIComponent(distinctQuestion(q++))}&limit=10`;
    await backToBack(web.base, auth, search, () => true, 1);
    await sleep(SETTLE_MS);
    const idle = samplers.map((sampler) => sampler.now());

    // 1,000 artifacts imported and embedded, one client searching back to back meanwhile.
    for (const sampler of samplers) sampler.enter("embedding");
    await importThroughAdmin(web, ARTIFACTS, workspaceId);
    let pending = await pendingVectors(web, workspaceId);
    const watcher = (async () => {
      while (pending > 0) {
        await sleep(500);
        pending = await pendingVectors(web, workspaceId);
      }
    })();
    await backToBack(web.base, auth, search, () => pending === 0, 20);
    await watcher;

    // The load: distinct questions at 1 and 32 connections, fetches by id at 32.
    for (const sampler of samplers) sampler.enter("load");
    const found = (await (await fetch(`${web.base}/api/v1/artifacts?query=churn&limit=20`, { headers: auth })).json()) as { results: Array<{ id: string }> };
    if (found.results.length === 0) throw new Error("the imported artifacts are not found: nothing to fetch");
    let f = 0;
    const fetchById = () => `/api/v1/artifacts/${found.results[f++ % found.results.length]!.id}`;
    const served = [await load(search, web.base, auth, 1, LOAD_MS), await load(search, web.base, auth, 32, LOAD_MS), await load(fetchById, web.base, auth, 32, LOAD_MS)];

    for (const sampler of samplers) sampler.enter("after");
    await sleep(SETTLE_MS);
    const measured = samplers.map((sampler, i): Measured => ({
      process: i === 0 ? (scenario.dev ? "dev (`npm run dev`)" : scenario.worker ? "web (INDEXER=worker)" : "web (INDEXER=in-process)") : "worker",
      threads: sampler.threads,
      served: i === 0 ? `${served.map((result) => result.perSecond.toFixed(0)).join(" / ")}` : undefined,
      idle: idle[i]!,
      embedding: sampler.max("embedding"),
      load: sampler.max("load"),
      after: sampler.now(),
      peak: sampler.peak(),
      target: i === 0 && !scenario.dev ? TARGET_MB[scenario.provider] : undefined,
    }));
    for (const sampler of samplers) sampler.stop();
    return measured;
  } finally {
    for (const service of started.reverse()) await service.stop();
    await embeddingsServer?.stop();
  }
}

const verdict = (row: Measured) => {
  if (row.target === undefined) return "";
  return `≤ ${row.target >= 1024 ? `${row.target / 1024} GB` : `${row.target} MB`}: ${row.peak <= row.target ? "holds" : "**over**"}`;
};

export async function runFootprintBench(databaseUrl: string | undefined): Promise<string[]> {
  // The Procfile's processes run the compiled build, as the platform's build step makes it.
  if (databaseUrl) execFileSync("npm", ["run", "-s", "build"], { cwd: ROOT, stdio: "inherit" });
  const scenarios = databaseUrl ? POSTGRES_SCENARIOS : EMBEDDED_SCENARIOS;
  const lines = [
    `### Footprint, ${databaseUrl ? "PostgreSQL 15" : "embedded (PGlite)"}: ${ARTIFACTS} artifacts, ${os.cpus().length} cores, Node ${process.versions.node}`,
    "",
    "| process | model threads | idle | import + embedding, max | under load, max | after | peak (VmHWM) | target | served under load: searches/s at 1 / 32 conn, fetches/s |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  ];
  for (const scenario of scenarios) {
    for (const row of await runScenario(databaseUrl, scenario)) {
      lines.push(`| ${scenario.title}: **${row.process}** | ${row.threads} | ${mb(row.idle)} | ${mb(row.embedding)} | ${mb(row.load)} | ${mb(row.after)} | **${mb(row.peak)}** | ${verdict(row)} | ${row.served ?? ""} |`);
    }
  }
  lines.push("");
  return lines;
}
