import { readFileSync } from "node:fs";
import { Client } from "pg";
import { startWorkerProcess } from "../server-process";
import { table, thousands, type Targets } from "./report";

// What the Procfile's `worker` costs the database while nothing is written: the CPU of its own
// database sessions (found by their application_name, read from /proc, so the server must run on
// this machine) and the rows every session of the server read sequentially from the service's
// tables, over a window of idleness after its backlog is empty.

const APPLICATION_NAME = "wsi-idle-worker";
const TARGET_CPU_PER_SECOND = 0.02;
const TARGET_ROWS_PER_SECOND = 1_000;
const EMBEDDED_TABLES = ["artifact_embeddings", "memories", "query_patterns", "error_learnings"];

export interface IdleWorkerFigures {
  seconds: number;
  /** CPU seconds per second of the worker's database sessions; undefined when /proc does not show them. */
  cpuPerSecond: number | undefined;
  sessions: number;
  /** Rows read by sequential scans of the service's tables, per second (every session of the server). */
  sequentialRowsPerSecond: number;
  /** Rows fetched through indexes, per second. */
  indexRowsPerSecond: number;
  vectors: number;
}

/** CPU seconds a backend has used, or undefined once it is gone (or /proc is not this server's). */
function backendCpuSeconds(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

async function tableReads(client: Client): Promise<{ sequential: number; index: number }> {
  const [row] = (
    await client.query<{ sequential: string; index: string }>(
      `SELECT coalesce(sum(seq_tup_read), 0) AS sequential, coalesce(sum(idx_tup_fetch), 0) AS index FROM pg_stat_user_tables WHERE schemaname = 'public'`,
    )
  ).rows;
  return { sequential: Number(row!.sequential), index: Number(row!.index) };
}

const nothingQueued = async (client: Client) =>
  (
    await client.query<{ queued: boolean }>(
      `SELECT ${EMBEDDED_TABLES.map((name) => `EXISTS (SELECT 1 FROM "${name}" WHERE ${name === "artifact_embeddings" ? "model" : "embedding_model"} IS NULL AND embed_attempts < 3)`).join(" OR ")} AS queued`,
    )
  ).rows[0]!.queued === false;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts the worker on `databaseUrl`, waits until it has embedded whatever was pending, then
 * samples its sessions' CPU once a second for `seconds` of idleness. The worker is stopped after.
 */
export async function measureIdleWorker(databaseUrl: string, seconds = 30): Promise<IdleWorkerFigures> {
  const url = new URL(databaseUrl);
  url.searchParams.set("application_name", APPLICATION_NAME);
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const worker = await startWorkerProcess(url.toString());
  try {
    const deadline = Date.now() + 20 * 60_000;
    while (!(await nothingQueued(client))) {
      if (Date.now() > deadline) throw new Error("the worker did not empty the backlog within 20 minutes");
      await pause(1_000);
    }
    // Its last batches' statistics reach the shared counters within a second or so of them.
    await pause(3_000);
    const sessions = async () =>
      (await client.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE application_name = $1`, [APPLICATION_NAME])).rows.map((row) => row.pid);
    const used = new Map<number, { first: number; last: number }>();
    let readable = true;
    let started: number | undefined;
    const sample = async () => {
      for (const pid of await sessions()) {
        const cpu = backendCpuSeconds(pid);
        if (cpu === undefined) {
          readable = false;
          continue;
        }
        const seen = used.get(pid);
        if (seen) seen.last = cpu;
        // A session opened during the window counts from zero.
        else used.set(pid, { first: started === undefined ? cpu : 0, last: cpu });
      }
    };
    await sample();
    const before = await tableReads(client);
    started = performance.now();
    while (performance.now() - started < seconds * 1_000) {
      await pause(1_000);
      await sample();
    }
    const elapsed = (performance.now() - started) / 1_000;
    const after = await tableReads(client);
    const cpu = [...used.values()].reduce((sum, { first, last }) => sum + (last - first), 0);
    const [{ vectors }] = (
      await client.query<{ vectors: number }>(`SELECT (SELECT count(*) FROM artifact_embeddings WHERE embedding IS NOT NULL)::int AS vectors`)
    ).rows as [{ vectors: number }];
    return {
      seconds: elapsed,
      cpuPerSecond: readable && used.size > 0 ? cpu / elapsed : undefined,
      sessions: used.size,
      sequentialRowsPerSecond: (after.sequential - before.sequential) / elapsed,
      indexRowsPerSecond: (after.index - before.index) / elapsed,
      vectors,
    };
  } finally {
    await worker.stop();
    await client.end();
  }
}

/** The figures as the bench prints them, each beside its target. */
export function idleWorkerReport(figures: IdleWorkerFigures, targets: Targets): string {
  const cpu = figures.cpuPerSecond;
  const rows = [
    [
      "CPU-s/s of its database sessions",
      cpu === undefined ? "n/a (server not on this machine)" : cpu.toFixed(4),
      `≤ ${TARGET_CPU_PER_SECOND}`,
      cpu === undefined ? "" : targets.check("idle worker CPU", cpu <= TARGET_CPU_PER_SECOND),
    ],
    [
      "rows read sequentially / s",
      thousands(Math.round(figures.sequentialRowsPerSecond)),
      `≤ ${thousands(TARGET_ROWS_PER_SECOND)}`,
      targets.check("idle worker sequential reads", figures.sequentialRowsPerSecond <= TARGET_ROWS_PER_SECOND),
    ],
    ["rows fetched through indexes / s", thousands(Math.round(figures.indexRowsPerSecond)), "", ""],
  ];
  return (
    `### Idle worker, ${thousands(figures.vectors)} artifact vectors, nothing written for ${figures.seconds.toFixed(0)} s ` +
    `(${figures.sessions} database sessions)\n\n${table(["figure", "value", "target", ""], rows)}`
  );
}
