import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrateDatabase } from "../src/db/database-readiness";
import { onServer as onCoordinator } from "../tests/support/postgres-server";
import { startServerProcess, type ServerProcess } from "./server-process";
import { percentile } from "./scale/measure";
import { ms, table, thousands } from "./scale/report";

// `npm run bench:citus-failures` (never part of `npm test`): what a running service does while a
// node of its Citus cluster fails, on a throwaway cluster of its own (scripts/citus-cluster.sh: a
// coordinator and two workers on loopback, stopped at the end). The web process runs as `npm
// start` runs it, in a process of its own, with its default timeouts and the rate limits lifted;
// FAILURE_WORKSPACES workspaces (60) spread over the two workers take a paced mixed load of about
// FAILURE_RATE requests a second (pushes with an Idempotency-Key, briefings, feedback), through:
//   baseline → worker 2 killed → started again → worker 2 paused (SIGSTOP) → resumed →
//   coordinator stopped → started again.
// Per phase: the healthy worker's workspaces (errors, p95 ÷ the baseline's), the failed node's
// (503s with Retry-After, and how long each took), how long after the node was back every
// workspace was served. Then shards move under the load (validations and searches added): a third
// worker and `citus_rebalance_start` by logical replication, a fourth and the same with
// `block_writes`; failed requests, the longest write, and each workspace's rows from before the
// move counted and summed afterwards. At the end: every acknowledged push found, and no prepared
// transaction left on any node.

const ROOT = path.resolve(__dirname, "..");
const CLUSTER = path.join(ROOT, "scripts", "citus-cluster.sh");
const TOOL = process.env.CITUS_TOOL ?? path.resolve(ROOT, "..", "shared", "tools", "citus");
const WORKSPACES = Number(process.env.FAILURE_WORKSPACES ?? 60);
const RATE = Number(process.env.FAILURE_RATE ?? 60);
const SECONDS = { baseline: 20, kill: 15, pause: 30, coordinator: 8, after: 10 };
const FAILURE_MIX: readonly Op[] = ["push", "briefing", "push", "briefing", "feedback"];
const REBALANCE_MIX: readonly Op[] = ["push", "briefing", "validate", "search", "push", "feedback"];
const progress = (message: string) => console.error(`[citus-failures] ${message}`);

const cluster = (...args: string[]) => execFileSync(CLUSTER, args, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
// Not synchronous: the load goes on, paced, while the tool acts.
const tool = (...args: string[]) => promisify(execFile)(TOOL, args, { encoding: "utf8" });
const node = (name: string, action: string) => tool("node", clusterDir, name, action);
let clusterDir = "";

interface Workspace {
  id: string;
  auth: Record<string, string>;
  worker: "worker1" | "worker2";
}

type Op = "push" | "briefing" | "feedback" | "validate" | "search";

interface Answer {
  phase: string;
  worker: Workspace["worker"];
  op: Op;
  status: number;
  retryAfter: string | null;
  ms: number;
  at: number;
}

const sleep = (msToWait: number) => new Promise((resolve) => setTimeout(resolve, msToWait));

async function main(): Promise<void> {
  clusterDir = mkdtempSync(path.join(os.tmpdir(), "wsi-citus-failures-"));
  progress(`starting a cluster in ${clusterDir}`);
  const url = cluster("start", clusterDir).trim().split("\n").pop()!.replace(/^DATABASE_URL=/, "");
  let service: ServerProcess | undefined;
  try {
    await migrateDatabase(url);
    service = await startServerProcess(url, {
      INDEXER: "worker", // no worker runs: the pushes' vectors wait, and no model shares the 2 cores
      RATE_LIMIT_PER_KEY: "1000000000",
      RATE_LIMIT_PER_ADDRESS: "1000000000",
      RATE_LIMIT_AUTH_FAILURES: "1000000000",
    });
    const base = service.base;
    const admin = service.admin;
    const workers = await onCoordinator(url, async (client) =>
      new Map((await client.query<{ port: number }>(`SELECT nodeport AS port FROM pg_dist_node WHERE groupid > 0 ORDER BY groupid`)).rows.map((row, i) => [row.port, `worker${i + 1}` as const])),
    );
    progress(`creating ${WORKSPACES} workspaces`);
    const workspaces: Workspace[] = [];
    for (let i = 0; i < WORKSPACES; i++) {
      const ws = (await (await fetch(`${base}/admin/v1/workspaces`, { method: "POST", headers: admin, body: JSON.stringify({ name: `Failure ${i + 1}` }) })).json()) as { id: string };
      const key = (await (await fetch(`${base}/admin/v1/workspaces/${ws.id}/keys`, { method: "POST", headers: admin, body: JSON.stringify({ name: "agent" }) })).json()) as { key: string };
      const port = await onCoordinator(url, async (client) =>
        (await client.query<{ port: number }>(`SELECT nodeport AS port FROM citus_shards WHERE table_name = 'workspaces'::regclass AND shardid = get_shard_id_for_distribution_column('workspaces', $1::text)`, [ws.id])).rows[0]!.port,
      );
      workspaces.push({ id: ws.id, auth: { authorization: `Bearer ${key.key}`, "content-type": "application/json" }, worker: workers.get(port) as Workspace["worker"] });
    }
    const spread = ["worker1", "worker2"].map((w) => workspaces.filter((ws) => ws.worker === w).length);
    progress(`spread: ${spread.join(" / ")}`);

    const answers: Answer[] = [];
    const acknowledged: string[] = [];
    // Drafts acknowledged and not yet validated, by workspace: the rebalance's load validates them.
    const drafts = new Map<string, string[]>();
    let mix: readonly Op[] = FAILURE_MIX;
    let phase = "warm-up";
    let stop = false;
    let sent = 0;
    const inFlight = new Set<Promise<void>>();
    const started = performance.now();
    const one = async (ws: Workspace, n: number) => {
      let op = mix[n % mix.length]!;
      const draft = op === "validate" ? drafts.get(ws.id)?.pop() : undefined;
      if (op === "validate" && draft === undefined) op = "briefing";
      const began = performance.now();
      const at = began - started;
      const thisPhase = phase;
      let status = 0;
      let retryAfter: string | null = null;
      try {
        const signal = AbortSignal.timeout(10_000);
        const res =
          op === "push"
            ? await fetch(`${base}/api/v1/artifacts`, {
                method: "POST",
                headers: { ...ws.auth, "idempotency-key": `push-${n}` },
                body: JSON.stringify({ summary: `Failure bench push ${n} about revenue churn`, why: "measured", confidence: 0.5, confidenceExplanation: "bench" }),
                signal,
              })
            : op === "validate"
              ? await fetch(`${base}/admin/v1/workspaces/${ws.id}/artifacts/${draft}/validate`, { method: "POST", headers: admin, body: JSON.stringify({ by: "bench@example.com" }), signal })
              : op === "search"
                ? await fetch(`${base}/api/v1/artifacts?query=${encodeURIComponent(`revenue churn ${n % 7}`)}&limit=10`, { headers: ws.auth, signal })
                : await fetch(`${base}/api/v1/${op}`, { headers: ws.auth, signal });
        status = res.status;
        retryAfter = res.headers.get("retry-after");
        const body = (await res.json()) as { artifactId?: string };
        if (op === "push" && status === 201 && body.artifactId) {
          acknowledged.push(body.artifactId);
          drafts.set(ws.id, [...(drafts.get(ws.id) ?? []), body.artifactId]);
        }
      } catch {
        status = 0; // no answer in 10 s, or no connection
      }
      answers.push({ phase: thisPhase, worker: ws.worker, op, status, retryAfter, ms: performance.now() - began, at });
    };
    const load = (async () => {
      const every = 1000 / RATE;
      for (let n = 0; !stop; n++) {
        const due = started + n * every;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        const request = one(workspaces[n % workspaces.length]!, n).finally(() => inFlight.delete(request));
        inFlight.add(request);
        sent++;
      }
    })();

    const marks: Record<string, number> = {};
    const mark = (name: string) => {
      marks[name] = performance.now() - started;
    };
    // The phase begins with its action; a recovery is timed from when the node is back.
    const enter = async (name: string, seconds: number, action?: () => Promise<unknown>) => {
      phase = name;
      await action?.();
      mark(name);
      progress(`${name} (${seconds} s)`);
      await sleep(seconds * 1000);
    };
    await enter("warm-up", 5);
    await enter("baseline", SECONDS.baseline);
    await enter("worker 2 killed", SECONDS.kill, () => node("worker2", "kill"));
    await enter("worker 2 back (kill)", SECONDS.after, () => node("worker2", "start"));
    await enter("worker 2 paused", SECONDS.pause, () => node("worker2", "pause"));
    await enter("worker 2 back (pause)", SECONDS.after, () => node("worker2", "resume"));
    await enter("coordinator stopped", SECONDS.coordinator, () => node("coordinator", "stop"));
    await enter("coordinator back", SECONDS.after, () => node("coordinator", "start"));

    // 6. Shards move while writes go on: a worker added and the shards rebalanced under the same
    // load with validations and searches in it, by logical replication, then (another worker) by
    // blocking writes. The rows that existed before each move are counted and summed afterwards.
    mix = REBALANCE_MIX;
    await enter("before the rebalances", SECONDS.baseline);
    const moves: Record<string, { moves: number; ms: number; before: Map<string, string>; after: Map<string, string> }> = {};
    for (const mode of ["force_logical", "block_writes"] as const) {
      const name = `rebalance (${mode})`;
      phase = name;
      mark(name);
      progress(name);
      // Rows committed for certain: a push's created_at is its transaction's start, which may wait (block_writes) past the instant.
      const cutoff = await onCoordinator(url, async (client) => (await client.query<{ at: Date }>("SELECT now() - interval '10 seconds' AS at")).rows[0]!.at);
      const before = await checksums(url, cutoff);
      await tool("add-worker", clusterDir);
      const began = performance.now();
      const planned = await onCoordinator(url, async (client) => {
        const plan = Number((await client.query<{ n: string }>("SELECT count(*) AS n FROM get_rebalance_table_shards_plan()")).rows[0]!.n);
        await client.query("SELECT citus_rebalance_start(shard_transfer_mode => $1::citus.shard_transfer_mode)", [mode]);
        await client.query("SELECT citus_rebalance_wait()");
        return plan;
      });
      const took = performance.now() - began;
      phase = `after ${name}`;
      await sleep(SECONDS.after * 1000);
      moves[mode] = { moves: planned, ms: took, before, after: await checksums(url, cutoff) };
    }
    stop = true;
    await load;
    await Promise.all(inFlight);
    progress(`${thousands(sent)} requests sent`);

    if (process.env.FAILURE_ANSWERS) writeFileSync(process.env.FAILURE_ANSWERS, JSON.stringify({ marks, answers }));
    const baseline = answers.filter((a) => a.phase === "baseline" && a.status >= 200 && a.status < 300).map((a) => a.ms);
    const baselineP95 = percentile(baseline, 0.95);
    const rows: string[][] = [];
    for (const name of ["baseline", "worker 2 killed", "worker 2 back (kill)", "worker 2 paused", "worker 2 back (pause)", "coordinator stopped", "coordinator back"]) {
      const inPhase = answers.filter((a) => a.phase === name);
      const healthy = inPhase.filter((a) => (name.startsWith("coordinator") ? false : a.worker === "worker1"));
      const affected = inPhase.filter((a) => (name.startsWith("coordinator") ? true : a.worker === "worker2"));
      const ok = (a: Answer) => a.status >= 200 && a.status < 300;
      const refused = affected.filter((a) => a.status === 503);
      const healthyP95 = healthy.length ? percentile(healthy.filter(ok).map((a) => a.ms), 0.95) : NaN;
      rows.push([
        name,
        healthy.length ? `${thousands(healthy.length)}: ${healthy.filter((a) => !ok(a)).length} errors` : "—",
        healthy.length ? `${ms(healthyP95)} (${(healthyP95 / baselineP95).toFixed(2)}×)` : "—",
        `${thousands(affected.length)}: ${affected.filter(ok).length} ok, ${refused.length} × 503${refused.some((a) => a.retryAfter === null) ? " (some without Retry-After)" : ""}, ${affected.filter((a) => !ok(a) && a.status !== 503).length} other`,
        refused.length ? `${ms(percentile(refused.map((a) => a.ms), 0.5))} / ${ms(Math.max(...refused.map((a) => a.ms)))}` : "—",
        name.includes("back") ? recovery(inPhase, marks[name]!, name.startsWith("coordinator") ? undefined : "worker2") : "",
      ]);
    }
    console.log(`\nCitus failures: ${WORKSPACES} workspaces (${spread.join(" / ")} on the two workers), about ${RATE} requests/s (push, briefing, push, briefing, feedback), web process with its default timeouts`);
    console.log(`baseline p95 ${ms(baselineP95)} (${thousands(baseline.length)} answers)\n`);
    console.log(table(["phase", "healthy worker's workspaces", "their p95 (÷ baseline)", "failed node's workspaces", "503 took (median / max)", "all served again after"], rows));

    const rebalanceRows = ["before the rebalances", "rebalance (force_logical)", "rebalance (block_writes)"].map((name) => {
      const inPhase = answers.filter((a) => a.phase === name);
      const writes = inPhase.filter((a) => a.op === "push" || a.op === "validate");
      const failed = inPhase.filter((a) => a.status < 200 || a.status >= 300);
      const mode = /\((\w+)\)/.exec(name)?.[1] as "force_logical" | "block_writes" | undefined;
      const moved = mode ? moves[mode]! : undefined;
      const changed = moved ? [...moved.before].filter(([ws, sum]) => moved.after.get(ws) !== sum).length : 0;
      return [
        name,
        moved ? `${moved.moves} moves, ${ms(moved.ms)}` : "—",
        `${thousands(inPhase.length)}: ${failed.length} failed${failed.length ? ` (${[...new Set(failed.map((a) => a.status))].join(", ")})` : ""}`,
        `${ms(percentile(inPhase.map((a) => a.ms), 0.95))}`,
        writes.length ? `${ms(Math.max(...writes.map((a) => a.ms)))}` : "—",
        moved ? `${moved.before.size} workspaces, ${changed} changed` : "—",
      ];
    });
    console.log("\nShards moved while the service is used (a worker added, then citus_rebalance_start), the load with validations and searches in it:\n");
    console.log(table(["phase", "rebalance", "requests", "p95", "longest write (push, validate)", "rows before the move: count and checksum after"], rebalanceRows));

    // Nothing acknowledged lost; no prepared transaction left behind.
    const found = await onCoordinator(url, async (client) => Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM artifacts WHERE id = ANY($1)`, [acknowledged])).rows[0]!.n));
    console.log(`\nacknowledged pushes (201): ${thousands(acknowledged.length)}; found afterwards: ${thousands(found)}`);
    const preparedSince = performance.now();
    let prepared = -1;
    while (performance.now() - preparedSince < 90_000) {
      prepared = await onCoordinator(url, async (client) =>
        (await client.query<{ result: string }>(`SELECT result FROM run_command_on_all_nodes('SELECT count(*) FROM pg_prepared_xacts')`)).rows.reduce((sum, row) => sum + Number(row.result), 0),
      );
      if (prepared === 0) break;
      await sleep(1_000);
    }
    console.log(`prepared transactions left on the nodes: ${prepared} (${prepared === 0 ? `none, ${ms(performance.now() - preparedSince)} after the load` : "still there after 90 s"})`);
  } finally {
    await service?.stop().catch(() => undefined);
    cluster("stop", clusterDir);
  }
}

/** From `since`, how long until every later request of the failed node's workspaces was answered 2xx. */
function recovery(answers: Answer[], since: number, worker: Workspace["worker"] | undefined): string {
  const after = answers.filter((a) => a.at >= since && (worker === undefined || a.worker === worker)).sort((a, b) => a.at - b.at);
  let lastFailure = -1;
  after.forEach((a, i) => {
    if (!(a.status >= 200 && a.status < 300)) lastFailure = i;
  });
  if (lastFailure === after.length - 1) return "not within the phase";
  const first = after[lastFailure + 1]!;
  return ms(first.at - since);
}

/** Per workspace, the count and an md5 of the artifacts created up to `cutoff` (id, status, summary). */
async function checksums(url: string, cutoff: Date): Promise<Map<string, string>> {
  return onCoordinator(url, async (client) => {
    const { rows } = await client.query<{ workspace: string; sum: string }>(
      `SELECT workspace_id AS workspace, count(*) || ':' || md5(string_agg(id || ':' || summary, ',' ORDER BY id)) AS sum
       FROM artifacts WHERE created_at <= $1 GROUP BY workspace_id`,
      [cutoff],
    );
    return new Map(rows.map((row) => [row.workspace, row.sum]));
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
