import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance) against the real server:
 * `src/server.ts` on a fresh embedded database in a temporary directory, without PUBLIC_BASE_URL
 * (a local deployment, which the DNS rebinding scenario is about), reached at /mcp/key through a
 * loopback proxy that adds the first run's API key, since the suite sends no Authorization header.
 * The proxy passes every other header as it came, Host and Origin included.
 *
 *   npm run test:conformance [-- --report <file>]
 *
 * Exits non-zero when a scenario fails. --report writes the counts in the fields CI sums
 * (numPassedTests, numFailedTests), one test per scenario. docs/mcp.md ("Conformance") says why
 * the suite's other scenarios do not apply.
 */
const SCENARIOS = ["server-initialize", "ping", "tools-list", "dns-rebinding-protection"];

const ROOT = path.resolve(__dirname, "..");
/** The first run creates the database and loads the demo workspace; a loaded 2-core machine is slow at it. */
const START_CEILING_MS = 120_000;
const STOP_CEILING_MS = 15_000;

interface StartedServer {
  child: ChildProcess;
  baseUrl: URL;
  apiKey: string;
  output: () => string;
}

function startServer(dataDir: string): Promise<StartedServer> {
  const child = spawn(process.execPath, ["--import", "tsx", "src/server.ts"], {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: "", DATA_DIR: dataDir, PORT: "0", DATABASE_URL: "", PUBLIC_BASE_URL: "", ADMIN_TOKEN: "", TELEMETRY: "off" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += String(chunk)));
  child.stderr!.on("data", (chunk) => (output += String(chunk)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start within ${START_CEILING_MS / 1000} s`)), START_CEILING_MS);
    const check = () => {
      const address = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      const apiKey = /API_KEY=(wsi_[0-9A-Za-z]+)/.exec(output)?.[1];
      if (address && apiKey) {
        clearTimeout(timer);
        resolve({ child, baseUrl: new URL(address), apiKey, output: () => output });
      }
    };
    child.stdout!.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code} before it was ready`));
    });
  }).catch((error: Error) => {
    child.kill("SIGKILL");
    throw Object.assign(error, { output });
  }) as Promise<StartedServer>;
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), STOP_CEILING_MS);
  await exited;
  clearTimeout(timer);
}

/** A loopback proxy to `target` that adds `Authorization: Bearer <key>` and changes nothing else. */
function startKeyProxy(target: URL, apiKey: string): Promise<Server> {
  const proxy = createServer((req, res) => {
    const upstream = httpRequest(
      { hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, authorization: `Bearer ${apiKey}` } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", (error) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: `the proxy could not reach the server: ${error.message}` }));
    });
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  });
  return new Promise((resolve) => proxy.listen(0, "127.0.0.1", () => resolve(proxy)));
}

/** The suite's command-line entry, run with this Node. */
function conformanceCli(): string {
  const manifest = require.resolve("@modelcontextprotocol/conformance/package.json");
  const { bin } = JSON.parse(readFileSync(manifest, "utf8")) as { bin: { conformance: string } };
  return path.join(path.dirname(manifest), bin.conformance);
}

/**
 * Runs one scenario. It passes when the suite exits 0 and its checks hold at least one success and
 * no failure: a scenario that finds nothing it can check (warnings only) proves nothing.
 */
async function runScenario(url: string, scenario: string, outputDir: string): Promise<boolean> {
  const child = spawn(process.execPath, [conformanceCli(), "server", "--url", url, "--scenario", scenario, "--output-dir", outputDir], {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: "" },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const exitCode = await new Promise<number | null>((resolve) => {
    child.once("error", () => resolve(null));
    child.once("exit", resolve);
  });
  if (exitCode !== 0) return false;
  const checks = readdirSync(outputDir).flatMap((run) => JSON.parse(readFileSync(path.join(outputDir, run, "checks.json"), "utf8")) as Array<{ status: string }>);
  const ok = checks.some((check) => check.status === "SUCCESS") && !checks.some((check) => check.status === "FAILURE");
  if (!ok) console.error(`${scenario}: the suite exited 0 but recorded no successful check`);
  return ok;
}

function reportPath(): string | undefined {
  const at = process.argv.indexOf("--report");
  return at === -1 ? undefined : process.argv[at + 1];
}

async function main(): Promise<number> {
  const workDir = mkdtempSync(path.join(os.tmpdir(), "wsi-conformance-"));
  const report = reportPath();
  const results = new Map<string, boolean>();
  let server: StartedServer | undefined;
  let proxy: Server | undefined;
  const started = performance.now();
  try {
    server = await startServer(path.join(workDir, "data"));
    const ready = performance.now();
    proxy = await startKeyProxy(server.baseUrl, server.apiKey);
    const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp/key`;
    console.log(`MCP conformance: server ready in ${((ready - started) / 1000).toFixed(1)} s; scenarios against ${url} (through the key-adding proxy)`);
    for (const scenario of SCENARIOS) results.set(scenario, await runScenario(url, scenario, path.join(workDir, "results", scenario)));
    console.log(`MCP conformance: scenarios ran in ${((performance.now() - ready) / 1000).toFixed(1)} s`);
  } catch (error) {
    console.error(`MCP conformance could not run: ${(error as Error).message}`);
    const output = (error as { output?: string }).output ?? server?.output();
    if (output) console.error(output);
  } finally {
    await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(undefined)));
    if (server) await stopServer(server.child);
    rmSync(workDir, { recursive: true, force: true });
  }
  const passed = [...results.values()].filter(Boolean).length;
  // A run that could not start counts as one failure, as CI counts a test pass that left no report.
  const failed = results.size === 0 ? 1 : results.size - passed;
  for (const [scenario, ok] of results) console.log(`  ${ok ? "passed" : "FAILED"}  ${scenario}`);
  console.log(`MCP conformance: ${passed} scenarios passed, ${failed} failed`);
  if (report) writeFileSync(report, JSON.stringify({ numPassedTests: passed, numFailedTests: failed, numRuntimeErrorTestSuites: 0, scenarios: Object.fromEntries(results) }));
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
