import type { ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { killStartedProcesses, spawnTracked } from "../support/child-processes";
import { TEST_DATABASE_URL, createMigratedDatabase } from "../support/postgres-server";
import { waitFor } from "../support/wait-for";

// The Procfile's web and worker process types on one database, as a deployment with INDEXER=worker
// runs them: the entry points in processes of their own, with the local model.
const ROOT = path.resolve(__dirname, "../..");
const ADMIN_TOKEN = "process-types-admin-token";

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function start(entry: "src/server.ts" | "src/worker.ts", databaseUrl: string): Started {
  const child = spawnTracked(process.execPath, ["--import", "tsx", entry], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_OPTIONS: "",
      PORT: "0",
      DATABASE_URL: databaseUrl,
      PUBLIC_BASE_URL: "https://wsi.example.com",
      SIGNING_SECRET: "a-signing-secret-of-at-least-32-characters",
      ADMIN_TOKEN,
      INDEXER: "worker",
      EMBEDDINGS_PROVIDER: "local",
      EMBEDDINGS_INDEX_THREADS: "1",
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += String(chunk)));
  child.stderr!.on("data", (chunk) => (output += String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { child, output: () => output, exited };
}

/** Threads of a process at the lowest CPU priority: the local model's index threads (nice 19). */
function indexThreadsOf(pid: number): number {
  return readdirSync(`/proc/${pid}/task`).filter((tid) => {
    try {
      // Field 19 of stat, counted after the command name (which may hold spaces).
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]) === 19;
    } catch {
      return false; // the thread ended meanwhile
    }
  }).length;
}

let database: { url: string; drop: () => Promise<void> };
beforeAll(async () => {
  database = await createMigratedDatabase(TEST_DATABASE_URL!);
});
afterEach(killStartedProcesses);
afterAll(() => database?.drop());

describe("process types on PostgreSQL with INDEXER=worker and the local model", () => {
  it("runs no index thread in the web process, which answers searches, while the worker embeds", async () => {
    const web = start("src/server.ts", database.url);
    const port = await waitFor(() => /"port":(\d+)/.exec(web.output())?.[1], { what: `the web process to listen:\n${web.output()}` });
    const base = `http://127.0.0.1:${port}`;
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" };
    const post = async (url: string, body: unknown) => {
      const res = await fetch(`${base}${url}`, { method: "POST", headers: admin, body: JSON.stringify(body) });
      expect(res.status).toBeLessThan(300);
      return res.json() as Promise<Record<string, string>>;
    };
    const workspace = await post("/admin/v1/workspaces", { name: "process types" });
    const { key } = await post(`/admin/v1/workspaces/${workspace.id}/keys`, { name: "search" });
    const artifacts = ["Enterprise churn doubled in Q3", "Ad spend rose in Japan", "Refunds fell after the redesign"].map((summary) => ({
      summary,
      why: "Seen in the quarterly figures",
      confidence: 0.8,
      confidenceExplanation: "Twelve months of data",
    }));
    await post(`/admin/v1/workspaces/${workspace.id}/import`, { artifacts });
    const pending = async () => {
      const state = (await (await fetch(`${base}/admin/v1/workspaces/${workspace.id}/index`, { headers: admin })).json()) as { tables: Record<string, { pending: number }> };
      return Object.values(state.tables).reduce((sum, table) => sum + table.pending, 0);
    };

    const search = await fetch(`${base}/api/v1/artifacts?query=${encodeURIComponent("big clients cancelling")}`, { headers: { authorization: `Bearer ${key}` } });
    expect(search.status).toBe(200);
    expect(await pending()).toBeGreaterThan(0);
    expect(indexThreadsOf(web.child.pid!)).toBe(0);

    const worker = start("src/worker.ts", database.url);
    await waitFor(async () => (await pending()) === 0, { what: `the worker to embed the imported rows:\n${worker.output()}`, ceilingMs: 150_000, everyMs: 250 });
    expect(indexThreadsOf(worker.child.pid!)).toBe(1);
    expect(indexThreadsOf(web.child.pid!)).toBe(0);
    // The worker learns of the web process's writes from its notices (pending-rows-notice.ts).
    await waitFor(() => worker.output().includes("listening for new rows: writers' notices wake the indexer"), { what: `the worker to listen:\n${worker.output()}` });
    // Both processes say whether telemetry is on, the worker in its start line.
    expect(worker.output()).toMatch(/"telemetry":"off[^"]*".*"msg":"worker started/);

    web.child.kill("SIGTERM");
    worker.child.kill("SIGTERM");
    expect(await web.exited).toBe(0);
    expect(await worker.exited).toBe(0);
  });
});
