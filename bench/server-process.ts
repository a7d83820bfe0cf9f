import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(__dirname, "..");

/** How the server runs from source, as `npm run dev` runs it (tsx as a loader, see below). */
export const SERVER_FROM_SOURCE = ["--import", "tsx", "src/server.ts"];

/** The real entry point (`src/server.ts`) in a process of its own, as `npm start` runs it. */
export interface ServerProcess extends ServiceProcess {
  base: string;
  admin: Record<string, string>;
}

/** A process of the service (web or worker) that the bench started. */
export interface ServiceProcess {
  child: ChildProcess;
  /** What it printed so far (stdout and stderr), until it was ready. */
  output(): string;
  /** CPU seconds the process has used so far (user + system), from /proc. */
  cpuSeconds(): number;
  /** Stops it (SIGTERM) and removes its data directory; resolves with the exit code. */
  stop(): Promise<number | null>;
}

const ADMIN_TOKEN = "bench-admin-token-0123456789";

/**
 * Starts the server on the embedded database in a fresh data directory (what `npm start` and `npm
 * run dev` use), or on `databaseUrl`. `env` is added to the process's environment; `args` are
 * node's (by default the source through tsx; `["dist/server.js"]` is the Procfile's web process).
 */
export async function startServerProcess(databaseUrl: string | undefined, env: Record<string, string> = {}, args = SERVER_FROM_SOURCE): Promise<ServerProcess> {
  const service = await startServiceProcess(databaseUrl, args, { ADMIN_TOKEN, ...env }, /"port":(\d+)/);
  const port = /"port":(\d+)/.exec(service.output())![1]!;
  return {
    ...service,
    base: `http://127.0.0.1:${port}`,
    admin: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
  };
}

/** The `worker` process type on `databaseUrl` (`["dist/worker.js"]` as the Procfile runs it). */
export function startWorkerProcess(databaseUrl: string, env: Record<string, string> = {}, args = ["--import", "tsx", "src/worker.ts"]): Promise<ServiceProcess> {
  return startServiceProcess(databaseUrl, args, env, /worker started/);
}

/** Spawns a process of the service and resolves once its output matches `ready`. */
async function startServiceProcess(databaseUrl: string | undefined, args: string[], env: Record<string, string>, ready: RegExp): Promise<ServiceProcess> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "wsi-bench-"));
  // tsx as a loader, not its CLI: the CLI runs the server in a child of its own, whose CPU and
  // memory the bench would not see.
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_OPTIONS: "",
      DATA_DIR: dataDir,
      PORT: "0",
      DATABASE_URL: databaseUrl ?? "",
      // What a managed deployment must set (the server refuses to start on PostgreSQL without them).
      PUBLIC_BASE_URL: "http://127.0.0.1",
      SIGNING_SECRET: "bench-signing-secret-0123456789abcdef",
      LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  child.stdout!.on("data", (chunk) => (output += String(chunk)));
  child.stderr!.on("data", (chunk) => (output += String(chunk)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    const code = await exited;
    rmSync(dataDir, { recursive: true, force: true });
    return code;
  };
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${args.join(" ")} did not start:\n${output}`)), 120_000);
      child.once("exit", () => reject(new Error(`${args.join(" ")} exited before it was ready:\n${output}`)));
      const check = () => {
        if (!ready.test(output)) return;
        clearTimeout(timer);
        resolve();
      };
      child.stdout!.on("data", check);
      check();
    });
    const readyOutput = output;
    // Logs are part of what the process does; the bench does not keep them.
    child.stdout!.removeAllListeners("data");
    child.stdout!.resume();
    return {
      child,
      output: () => readyOutput,
      cpuSeconds: () => {
        // Fields 14 and 15 of /proc/<pid>/stat, after the command name in parentheses: clock ticks.
        const fields = readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
        return (Number(fields[11]) + Number(fields[12])) / 100;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
