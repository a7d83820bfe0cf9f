import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(__dirname, "..");

/** The real entry point (`src/server.ts`) in a process of its own, as `npm start` runs it. */
export interface ServerProcess {
  child: ChildProcess;
  base: string;
  admin: Record<string, string>;
  /** CPU seconds the process has used so far (user + system), from /proc. */
  cpuSeconds(): number;
  /** Stops it (SIGTERM) and removes its data directory; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts the server on the embedded database in a fresh data directory (what `npm start` and `npm
 * run dev` use), or on `databaseUrl`. `env` is added to the process's environment.
 */
export async function startServerProcess(databaseUrl: string | undefined, env: Record<string, string> = {}): Promise<ServerProcess> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "wsi-bench-"));
  const adminToken = "bench-admin-token-0123456789";
  // tsx as a loader, not its CLI: the CLI runs the server in a child of its own, whose CPU the
  // bench would not see.
  const child = spawn(process.execPath, ["--import", "tsx", "src/server.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_OPTIONS: "",
      DATA_DIR: dataDir,
      PORT: "0",
      ADMIN_TOKEN: adminToken,
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
    const port = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 120_000);
      child.once("exit", () => reject(new Error(`server exited before listening:\n${output}`)));
      child.stdout!.on("data", () => {
        const match = /"port":(\d+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
    });
    // Request logs are part of what the server does; the bench does not keep them.
    child.stdout!.removeAllListeners("data");
    child.stdout!.resume();
    return {
      child,
      base: `http://127.0.0.1:${port}`,
      admin: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
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
