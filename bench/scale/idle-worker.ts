import { readFileSync } from "node:fs";
import { Client } from "pg";
import { clusterNodes } from "../../tests/support/postgres-server";
import { startWorkerProcess } from "../server-process";
import { table, thousands, type Targets } from "./report";

// What the Procfile's `worker` costs the database while nothing is written, over a window of
// idleness after its backlog is empty, beside the same window with no worker (the floor: the
// server's own background work):
// - the CPU of its own database sessions (found by their application_name, read from /proc, so the
//   server must run on this machine). On Citus its statements run on the workers' shards through
//   the coordinator's own connections, which no application_name names: there the figure is every
//   server process of every node, less the floor;
// - the rows every session read sequentially from the service's tables, summed over every node
//   (on Citus the shards' statistics are the workers').

const APPLICATION_NAME = "wsi-idle-worker";
const TARGET_CPU_PER_SECOND = 0.02;
const TARGET_ROWS_PER_SECOND = 1_000;
const EMBEDDED_TABLES = ["artifact_embeddings", "memories", "query_patterns", "error_learnings"];

export interface IdleWindow {
  seconds: number;
  /** CPU seconds per second of every server process of every node; undefined when /proc does not show them. */
  serverCpuPerSecond: number | undefined;
  /** Rows read by sequential scans of the service's tables, per second (every session, every node). */
  sequentialRowsPerSecond: number;
  /** Rows fetched through indexes, per second. */
  indexRowsPerSecond: number;
}

export interface IdleWorkerFigures {
  /** Whether the server is a Citus cluster (its worker nodes' figures included). */
  citus: boolean;
  idle: IdleWindow & {
    /** CPU seconds per second of the worker's own database sessions (the coordinator's, on Citus). */
    sessionsCpuPerSecond: number | undefined;
    sessions: number;
    /** CPU seconds per second of the worker's Node process itself. */
    processCpuPerSecond: number;
  };
  /** The same window with no worker running. */
  floor: IdleWindow;
  vectors: number;
}

/** CPU seconds a process has used, or undefined once it is gone (or /proc is not this server's). */
function processCpuSeconds(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** A client on the bench's database at each node of the server: the one PostgreSQL, or every node of a Citus cluster. */
async function connectEveryNode(databaseUrl: string): Promise<Client[]> {
  const urls = ((await clusterNodes(databaseUrl)) ?? [undefined]).map((node) => {
    const url = new URL(databaseUrl);
    if (node) {
      url.hostname = node.host;
      url.port = String(node.port);
    }
    return url.toString();
  });
  const clients = [];
  for (const url of urls) {
    const client = new Client({ connectionString: url });
    await client.connect();
    clients.push(client);
  }
  return clients;
}

async function tableReads(nodes: Client[]): Promise<{ sequential: number; index: number }> {
  let sequential = 0;
  let index = 0;
  for (const node of nodes) {
    const [row] = (
      await node.query<{ sequential: string; index: string }>(
        `SELECT coalesce(sum(seq_tup_read), 0) AS sequential, coalesce(sum(idx_tup_fetch), 0) AS index FROM pg_stat_user_tables WHERE schemaname = 'public'`,
      )
    ).rows;
    sequential += Number(row!.sequential);
    index += Number(row!.index);
  }
  return { sequential, index };
}

/** Every server process of every node (backends and background processes alike), less the bench's own sampling sessions. */
async function serverProcesses(nodes: Client[]): Promise<number[]> {
  const pids = [];
  for (const node of nodes) {
    pids.push(...(await node.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE pid <> pg_backend_pid()`)).rows.map((row) => row.pid));
  }
  return pids;
}

/** CPU used by a changing set of processes, sampled: a process first seen during the window counts from zero. */
class CpuOfProcesses {
  private readonly used = new Map<number, { first: number; last: number }>();
  private started = false;
  readable = true;

  sample(pids: number[]): void {
    for (const pid of pids) {
      const cpu = processCpuSeconds(pid);
      if (cpu === undefined) {
        this.readable = false;
        continue;
      }
      const seen = this.used.get(pid);
      if (seen) seen.last = cpu;
      else this.used.set(pid, { first: this.started ? 0 : cpu, last: cpu });
    }
    this.started = true;
  }

  get processes(): number {
    return this.used.size;
  }

  perSecond(elapsed: number): number | undefined {
    if (!this.readable || this.used.size === 0) return undefined;
    return [...this.used.values()].reduce((sum, { first, last }) => sum + (last - first), 0) / elapsed;
  }
}

const nothingQueued = async (client: Client) =>
  (
    await client.query<{ queued: boolean }>(
      `SELECT ${EMBEDDED_TABLES.map((name) => `EXISTS (SELECT 1 FROM "${name}" WHERE ${name === "artifact_embeddings" ? "model" : "embedding_model"} IS NULL AND embed_attempts < 3)`).join(" OR ")} AS queued`,
    )
  ).rows[0]!.queued === false;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One window: the server's processes sampled once a second, the table reads around it; `sessions` adds a set of its own. */
async function measureWindow(
  nodes: Client[],
  seconds: number,
  sessions?: { pids: () => Promise<number[]>; cpu: CpuOfProcesses },
): Promise<IdleWindow> {
  const server = new CpuOfProcesses();
  const sample = async () => {
    server.sample(await serverProcesses(nodes));
    if (sessions) sessions.cpu.sample(await sessions.pids());
  };
  await sample();
  const before = await tableReads(nodes);
  const started = performance.now();
  while (performance.now() - started < seconds * 1_000) {
    await pause(1_000);
    await sample();
  }
  const elapsed = (performance.now() - started) / 1_000;
  const after = await tableReads(nodes);
  return {
    seconds: elapsed,
    serverCpuPerSecond: server.perSecond(elapsed),
    sequentialRowsPerSecond: (after.sequential - before.sequential) / elapsed,
    indexRowsPerSecond: (after.index - before.index) / elapsed,
  };
}

/**
 * Measures `seconds` with no worker (the floor), then starts the worker on `databaseUrl`, waits
 * until it has embedded whatever was pending, and measures `seconds` of its idleness. The worker
 * is stopped after.
 */
export async function measureIdleWorker(databaseUrl: string, seconds = 30): Promise<IdleWorkerFigures> {
  const nodes = await connectEveryNode(databaseUrl);
  const coordinator = nodes[0]!;
  const citus = (await clusterNodes(databaseUrl)) !== undefined;
  try {
    const floor = await measureWindow(nodes, seconds);
    const url = new URL(databaseUrl);
    url.searchParams.set("application_name", APPLICATION_NAME);
    const worker = await startWorkerProcess(url.toString());
    try {
      const deadline = Date.now() + 20 * 60_000;
      while (!(await nothingQueued(coordinator))) {
        if (Date.now() > deadline) throw new Error("the worker did not empty the backlog within 20 minutes");
        await pause(1_000);
      }
      // Its last batches' statistics reach the shared counters within a second or so of them.
      await pause(3_000);
      const sessions = {
        pids: async () =>
          (await coordinator.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE application_name = $1`, [APPLICATION_NAME])).rows.map((row) => row.pid),
        cpu: new CpuOfProcesses(),
      };
      const processBefore = worker.cpuSeconds();
      const idle = await measureWindow(nodes, seconds, sessions);
      const processCpuPerSecond = (worker.cpuSeconds() - processBefore) / idle.seconds;
      const [{ vectors }] = (
        await coordinator.query<{ vectors: number }>(`SELECT (SELECT count(*) FROM artifact_embeddings WHERE embedding IS NOT NULL)::int AS vectors`)
      ).rows as [{ vectors: number }];
      return {
        citus,
        idle: { ...idle, sessionsCpuPerSecond: sessions.cpu.perSecond(idle.seconds), sessions: sessions.cpu.processes, processCpuPerSecond },
        floor,
        vectors,
      };
    } finally {
      await worker.stop();
    }
  } finally {
    for (const node of nodes) await node.end();
  }
}

const cpuText = (value: number | undefined) => (value === undefined ? "n/a (server not on this machine)" : value.toFixed(4));

/** The figures as the bench prints them, each beside its target. */
export function idleWorkerReport(figures: IdleWorkerFigures, targets: Targets): string {
  const { idle, floor, citus } = figures;
  // On Citus the worker's statements run in the coordinator's connections to the workers: what it
  // costs is every node's processes, less the floor.
  const attributed =
    citus && idle.serverCpuPerSecond !== undefined && floor.serverCpuPerSecond !== undefined
      ? Math.max(0, idle.serverCpuPerSecond - floor.serverCpuPerSecond)
      : citus
        ? undefined
        : idle.sessionsCpuPerSecond;
  const rows = [
    [
      citus ? "CPU-s/s of every node's server processes, less the floor" : "CPU-s/s of its database sessions",
      cpuText(attributed),
      `≤ ${TARGET_CPU_PER_SECOND}`,
      attributed === undefined ? "" : targets.check("idle worker CPU", attributed <= TARGET_CPU_PER_SECOND),
    ],
    // All of the window's reads count, the worker's or not: a floor that read more (statistics of
    // the searches before it, flushed late) must not hide the worker's.
    [
      "rows read sequentially / s (every session)",
      thousands(Math.round(idle.sequentialRowsPerSecond)),
      `≤ ${thousands(TARGET_ROWS_PER_SECOND)}`,
      targets.check("idle worker sequential reads", idle.sequentialRowsPerSecond <= TARGET_ROWS_PER_SECOND),
    ],
    ["rows fetched through indexes / s", thousands(Math.round(idle.indexRowsPerSecond)), "", ""],
    ["CPU-s/s of the worker's own Node process", idle.processCpuPerSecond.toFixed(4), "", ""],
    ["CPU-s/s of every server process, worker idle / no worker (floor)", `${cpuText(idle.serverCpuPerSecond)} / ${cpuText(floor.serverCpuPerSecond)}`, "", ""],
    ["rows read sequentially / s, worker idle / no worker (floor)", `${thousands(Math.round(idle.sequentialRowsPerSecond))} / ${thousands(Math.round(floor.sequentialRowsPerSecond))}`, "", ""],
  ];
  const where = citus ? "every node of the cluster" : "the server";
  return (
    `### Idle worker, ${thousands(figures.vectors)} artifact vectors, nothing written for ${idle.seconds.toFixed(0)} s ` +
    `(${idle.sessions} database sessions of its own; ${where} measured)\n\n${table(["figure", "value", "target", ""], rows)}`
  );
}
