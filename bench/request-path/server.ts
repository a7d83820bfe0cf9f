import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { ROOT, settings } from "./config";
import { baseEnvironment, startLogged, type LoggedProcess } from "./processes";

// The service as `npm start` runs it: `npm run build` once, then `node dist/server.js` in a process
// of its own with default settings (LOG_LEVEL info, logs to a file), except the rate limits, set
// so high that no run reaches them (their limiters still run on every request).
//
// Not bench/server-process.ts: that one runs the source through tsx, keeps the output in a pipe
// and deletes the data directory on stop, where the floors here open that directory after the
// service has stopped.

export interface Service {
  process: LoggedProcess;
  base: string;
  admin: Record<string, string>;
}

const LIFTED_RATE_LIMITS = {
  RATE_LIMIT_PER_KEY: "1000000000",
  RATE_LIMIT_PER_ADDRESS: "1000000000",
  RATE_LIMIT_AUTH_FAILURES: "1000000000",
};

/** On PostgreSQL the admin token must be given (the embedded engine makes one on its first run). */
const POSTGRES_ADMIN_TOKEN = "adm_request-path-bench-0123456789abcdef";

/** `npm run build`, what `npm start` does first; its duration. */
export async function buildService(): Promise<number> {
  const started = performance.now();
  try {
    await promisify(execFile)("npm", ["run", "build"], { cwd: ROOT, env: process.env, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string };
    throw new Error(`npm run build failed (the service's code does not compile as it stands):\n${failure.stdout ?? ""}${failure.stderr ?? ""}`);
  }
  return performance.now() - started;
}

/**
 * Starts `dist/server.js`: on the embedded engine in `dataDir` (created on the first start, with
 * the Demo workspace of a first run), or on `databaseUrl`. `env` adds settings (the seeding's
 * INDEXER=worker). Resolves once the banner is printed.
 */
export async function startService(options: { databaseUrl?: string; dataDir: string; logFile: string; env?: Record<string, string> }): Promise<Service> {
  if (existsSync(path.join(ROOT, ".env"))) console.warn("note: .env exists in the project: dist/server.js reads it (dotenv), so the service may not run with defaults");
  const env: NodeJS.ProcessEnv = { ...baseEnvironment(), DATA_DIR: options.dataDir, PORT: "0", ...LIFTED_RATE_LIMITS, ...options.env };
  if (options.databaseUrl) {
    // What a deployment on PostgreSQL must set: the server refuses to start without them.
    Object.assign(env, { DATABASE_URL: options.databaseUrl, PUBLIC_BASE_URL: "http://127.0.0.1", SIGNING_SECRET: "request-path-bench-signing-secret-0123456789", ADMIN_TOKEN: POSTGRES_ADMIN_TOKEN });
  }
  const { process: child } = await startLogged("the service (node dist/server.js)", settings.node, ["dist/server.js"], {
    env,
    logFile: options.logFile,
    // The banner's last lines, printed after the server listens, and the log line that says so
    // (log lines are written in batches, so it may come after the banner).
    ready: /(?=[\s\S]*"msg":"listening")[\s\S]*\nTry:\n[^\n]*\n[^\n]*\n/,
  });
  const log = child.log();
  const port = /"port":(\d+)[^\n]*"msg":"listening"/.exec(log)?.[1];
  if (!port) throw new Error(`no port in the service's "listening" line:\n${log}`);
  const token = options.databaseUrl ? POSTGRES_ADMIN_TOKEN : (/ADMIN_TOKEN=(adm_\S+)/.exec(log)?.[1] ?? readFileSync(path.join(options.dataDir, "admin-token"), "utf8").trim());
  return { process: child, base: `http://127.0.0.1:${port}`, admin: { authorization: `Bearer ${token}`, "content-type": "application/json" } };
}

/** A JSON request to the service that must answer `expected`; its body. */
export async function call<T>(service: Service, method: string, route: string, body?: unknown, headers = service.admin, expected = [200, 201]): Promise<T> {
  const res = await fetch(`${service.base}${route}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (!expected.includes(res.status)) throw new Error(`${method} ${route} answered ${res.status}: ${text.slice(0, 2000)}`);
  return (text ? JSON.parse(text) : undefined) as T;
}
