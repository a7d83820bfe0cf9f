import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { spawnTracked } from "./child-processes";

// The real entry point in its own process: what `npm run dev` and a dyno run.
const ROOT = path.resolve(__dirname, "../..");
// tsx as a loader, not its CLI: the CLI runs the script in a child of its own, and when that child
// does not confirm a relayed SIGTERM within about 60 ms (a busy machine, an import being embedded)
// it kills the child with SIGKILL and exits with 143, which no graceful stop can pass.
const FROM_SOURCE = ["--import", "tsx"];

/**
 * How long a server may take to say it is listening. It waits for that line, never for a fixed
 * time; the ceiling is generous because a loaded 2-core machine starts the model and the embedded
 * database far slower than an idle one.
 */
export const START_CEILING_MS = 120_000;
/** A test that starts a server: its start, plus what it then does. */
export const SERVER_TEST_TIMEOUT_MS = START_CEILING_MS + 60_000;

export interface Started {
  child: ChildProcess;
  output: () => string;
  baseUrl: string;
}

export function startServer(dataDir: string, extraEnv: Record<string, string> = {}): Promise<Started> {
  const child = spawnTracked(process.execPath, [...FROM_SOURCE, "src/server.ts"], {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: "", DATA_DIR: dataDir, PORT: "0", ADMIN_TOKEN: "", DATABASE_URL: "", ...extraEnv },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += String(chunk)));
  child.stderr!.on("data", (chunk) => (output += String(chunk)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      // Stopped here: a test whose start failed has no handle to stop it with.
      child.kill("SIGKILL");
      reject(new Error(`server did not start within ${START_CEILING_MS / 1000} s:\n${output}`));
    }, START_CEILING_MS);
    const check = () => {
      const match = /listening on (http:\/\/localhost:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, output: () => output, baseUrl: match[1]! });
      }
    };
    child.stdout!.on("data", check);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`server exited with ${code}`), { output }));
    });
  });
}

export function runAdminCli(dataDir: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnTracked(process.execPath, [...FROM_SOURCE, "src/cli/admin.ts", ...args], {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: "", DATA_DIR: dataDir, ADMIN_TOKEN: "", DATABASE_URL: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk) => (stdout += String(chunk)));
  child.stderr!.on("data", (chunk) => (stderr += String(chunk)));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, stdout, stderr })));
}

export function exitOf(child: ChildProcess): Promise<{ code: number | null; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, ms: Date.now() - started })));
}

