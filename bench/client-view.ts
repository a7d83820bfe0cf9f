import { execFile } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { backToBack, load, type LoadResult } from "./load";
import { importThroughAdmin, pendingVectors, resetPostgres } from "./pipeline-bench";
import { distinctQuestion } from "./distinct-questions";
import { startServerProcess, type ServerProcess } from "./server-process";

// What a client sees: the real entry point in a process of its own (on the embedded database, a
// data directory on disk, as `npm start` and `npm run dev` use it), 1,000 artifacts with bodies
// imported through the admin API, and searches from this process, each a different question.
// Beside each figure, the same with the in-process bench's habits (its four questions asked in
// turn), so that a difference between the two benches can be put down to its cause.

const ARTIFACTS = Number(process.env.BENCH_ARTIFACTS ?? 1000);
const LOAD_MS = Number(process.env.BENCH_LOAD_MS ?? 3000);
const REPEATED = ["enterprise customers are leaving", "advertising costs went up", "sales in Asia", "margins got worse in Europe"];

const rate = (result: LoadResult, cores: number) => `${result.perSecond.toFixed(0)} req/s, p50 ${result.p50.toFixed(1)} ms, ${cores.toFixed(2)} server cores`;

/** A load figure and the server's CPU over it (cores busy on average). */
async function loaded(server: ServerProcess, paths: () => string, headers: Record<string, string>, connections: number) {
  const cpuBefore = server.cpuSeconds();
  const started = performance.now();
  const result = await load(paths, server.base, headers, connections, LOAD_MS);
  const cores = (server.cpuSeconds() - cpuBefore) / ((performance.now() - started) / 1000);
  return { result, cores };
}

/**
 * The same load from autocannon in a process of its own (bench/autocannon-client.ts), as an
 * outside bench sends it, distinct questions from `firstQuestion` on.
 */
async function outsideLoad(server: ServerProcess, headers: Record<string, string>, connections: number, firstQuestion: number) {
  const cpuBefore = server.cpuSeconds();
  const started = performance.now();
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", path.join(__dirname, "autocannon-client.ts")], {
    cwd: path.resolve(__dirname, ".."),
    env: {
      ...process.env,
      NODE_OPTIONS: "",
      LOAD_BASE: server.base,
      LOAD_AUTHORIZATION: headers.authorization ?? "",
      LOAD_CONNECTIONS: String(connections),
      LOAD_SECONDS: String(Math.max(1, Math.round(LOAD_MS / 1000))),
      LOAD_FIRST_QUESTION: String(firstQuestion),
    },
  });
  const cores = (server.cpuSeconds() - cpuBefore) / ((performance.now() - started) / 1000);
  const figures = JSON.parse(stdout.trim().split("\n").pop()!) as LoadResult & { non2xx: number; errors: number };
  if (figures.non2xx > 0 || figures.errors > 0) throw new Error(`autocannon: ${figures.non2xx} answers other than 2xx, ${figures.errors} errors`);
  return { result: figures, cores };
}

export async function runClientView(databaseUrl: string | undefined): Promise<string[]> {
  const kind = databaseUrl ? "PostgreSQL 15" : "embedded (PGlite), data directory on disk";
  if (databaseUrl) await resetPostgres(databaseUrl);
  const server = await startServerProcess(databaseUrl, {
    // The limits lifted, as in the in-process bench: the figures measure the service, not its budget.
    RATE_LIMIT_PER_KEY: "100000000",
    RATE_LIMIT_PER_ADDRESS: "100000000",
  });
  try {
    const workspaceId = await importThroughAdmin(server, ARTIFACTS);
    const key = (await (await fetch(`${server.base}/admin/v1/workspaces/${workspaceId}/keys`, { method: "POST", headers: server.admin, body: JSON.stringify({ name: "bench" }) })).json()) as { key: string };
    const auth = { authorization: `Bearer ${key.key}` };
    let q = 0;
    const distinct = () => `/api/v1/artifacts?query=${encodeURIComponent(distinctQuestion(q++))}&limit=10`;
    const repeated = () => `/api/v1/artifacts?query=${encodeURIComponent(REPEATED[q++ % REPEATED.length]!)}&limit=10`;
    // Four of the distinct questions in turn: tells a question's being new from its wording.
    const fourOfThem = () => `/api/v1/artifacts?query=${encodeURIComponent(distinctQuestion(q++ % 4))}&limit=10`;

    // Searches while the import is embedded, then idle: the independent probe's measure.
    let pending = await pendingVectors(server, workspaceId);
    const vectorsAtStart = pending;
    const watcher = (async () => {
      while (pending > 0) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        pending = await pendingVectors(server, workspaceId);
      }
    })();
    const busy = await backToBack(server.base, auth, distinct, () => pending === 0, 20);
    await watcher;
    const idleDistinct = await backToBack(server.base, auth, distinct, () => true, 200);
    const idleRepeated = await backToBack(server.base, auth, repeated, () => true, 200);
    const idleFour = await backToBack(server.base, auth, fourOfThem, () => true, 200);

    const { results: artifacts } = (await (await fetch(`${server.base}/api/v1/artifacts?query=${encodeURIComponent("churn")}&limit=20`, { headers: auth })).json()) as { results: Array<{ id: string }> };
    if (artifacts.length === 0) throw new Error("the imported artifacts are not found: nothing to fetch");
    let f = 0;
    const fetchPath = () => `/api/v1/artifacts/${artifacts[f++ % artifacts.length]!.id}`;
    const rows: string[][] = [
      ["search p50 / max while embedding, distinct questions", `${busy.p50.toFixed(1)} / ${busy.max.toFixed(0)} ms (${busy.count} req, ${vectorsAtStart} vectors to make)`, `idle ${idleDistinct.p50.toFixed(1)} ms`, `**${(busy.p50 / idleDistinct.p50).toFixed(2)}×** idle`],
      ["search p50 idle, 1 conn: distinct questions", `${idleDistinct.p50.toFixed(1)} ms`, `4 of them in turn: ${idleFour.p50.toFixed(1)} ms`, `${(idleDistinct.p50 / idleFour.p50).toFixed(2)}×`],
      ["search p50 idle, 1 conn: the in-process bench's 4 questions in turn", `${idleRepeated.p50.toFixed(1)} ms`, `4 distinct questions in turn: ${idleFour.p50.toFixed(1)} ms`, `${(idleRepeated.p50 / idleFour.p50).toFixed(2)}×`],
    ];
    for (const connections of [1, 32]) {
      const d = await loaded(server, distinct, auth, connections);
      const r = await loaded(server, repeated, auth, connections);
      rows.push([`search, ${connections} conn, distinct questions`, rate(d.result, d.cores), `the 4 questions: ${rate(r.result, r.cores)}`, `${(d.result.perSecond / r.result.perSecond).toFixed(2)}× req/s`]);
      const outside = await outsideLoad(server, auth, connections, q);
      q += outside.result.requests;
      rows.push([
        `search, ${connections} conn, distinct questions, autocannon in its own process`, rate(outside.result, outside.cores),
        `this process's client: ${rate(d.result, d.cores)}`, `${(outside.result.perSecond / d.result.perSecond).toFixed(2)}× req/s`,
      ]);
    }
    for (const connections of [1, 32]) {
      const r = await loaded(server, fetchPath, auth, connections);
      rows.push([`fetch by id, ${connections} conn`, rate(r.result, r.cores), "", ""]);
    }
    return [
      `### What a client sees, ${kind}: ${ARTIFACTS} artifacts, ${os.cpus().length} cores`,
      "",
      "| figure | measured | beside | ratio |",
      "| --- | --- | --- | --- |",
      ...rows.map((cells) => `| ${cells.join(" | ")} |`),
      "",
    ];
  } finally {
    await server.stop();
  }
}
