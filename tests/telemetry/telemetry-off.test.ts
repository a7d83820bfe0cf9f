import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import os from "node:os";
import path from "node:path";
import { spawnTracked } from "../support/child-processes";
import { freePort } from "../support/free-port";
import { exitOf, SERVER_TEST_TIMEOUT_MS, startServer, type Started } from "../support/server-process";
import { waitFor } from "../support/wait-for";

const ROOT = path.resolve(__dirname, "../..");
const TSX = path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");
const METRICS_TOKEN = "metrics-token-0123456789abcdef0123456789";

/** What a process that loads the entry points' modules (preload first) has in its module cache. */
async function loadedModules(env: Record<string, string>): Promise<{ sdkModules: string[]; api: boolean; started: boolean }> {
  const child = spawnTracked(process.execPath, [TSX, "tests/telemetry/fixtures/loaded-modules.ts"], {
    cwd: ROOT,
    // Nothing of the developer's environment or .env decides it: every telemetry variable is given.
    env: { ...process.env, NODE_OPTIONS: "", DATABASE_URL: "", TELEMETRY: "", OTEL_SDK_DISABLED: "", OTEL_TRACES_EXPORTER: "none", OTEL_METRICS_EXPORTER: "none", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += String(chunk)));
  child.stderr!.on("data", (chunk) => (output += String(chunk)));
  const { code } = await exitOf(child);
  if (code !== 0) throw new Error(`the fixture exited with ${code}:\n${output}`);
  // The fixture's one line of its own; the preload's log lines (telemetry on) may come before or after it.
  const report = output.split("\n").find((line) => line.startsWith('{"sdkModules":'));
  if (!report) throw new Error(`the fixture printed no report:\n${output}`);
  return JSON.parse(report);
}

describe("telemetry off", () => {
  it("loads no OpenTelemetry SDK, exporter or instrumentation module, only the API", async () => {
    const off = await loadedModules({ OTEL_TRACES_EXPORTER: "otlp", OTEL_METRICS_EXPORTER: "prometheus" });
    expect(off).toEqual({ sdkModules: [], api: true, started: false });
  });

  it("loads none either when TELEMETRY=on but OTEL_SDK_DISABLED=true", async () => {
    const disabled = await loadedModules({ TELEMETRY: "on", OTEL_SDK_DISABLED: "true", OTEL_TRACES_EXPORTER: "otlp" });
    expect(disabled).toEqual({ sdkModules: [], api: true, started: false });
  });

  it("is what the check can see: with TELEMETRY=on the same modules bring the SDK", async () => {
    const on = await loadedModules({ TELEMETRY: "on", OTEL_TRACES_EXPORTER: "console" });
    expect(on.started).toBe(true);
    expect(on.sdkModules).toEqual(expect.arrayContaining(["@opentelemetry/sdk-trace-node", "@opentelemetry/instrumentation-http", "@opentelemetry/instrumentation-express", "@prisma/instrumentation"]));
  });

  describe("the server process", () => {
    let dataDir: string;
    let server: Started | undefined;
    let prometheusPort: number;

    beforeAll(async () => {
      prometheusPort = await freePort();
      dataDir = mkdtempSync(path.join(os.tmpdir(), "wsi-telemetry-off-"));
      // Everything a Prometheus setup names, but not TELEMETRY=on.
      server = await startServer(dataDir, {
        TELEMETRY: "",
        OTEL_METRICS_EXPORTER: "prometheus",
        OTEL_EXPORTER_PROMETHEUS_HOST: "127.0.0.1",
        OTEL_EXPORTER_PROMETHEUS_PORT: String(prometheusPort),
        METRICS_TOKEN,
      });
    }, SERVER_TEST_TIMEOUT_MS);

    afterAll(async () => {
      if (server && server.child.exitCode === null) {
        const exited = exitOf(server.child);
        server.child.kill("SIGTERM");
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    });

    it("has no /metrics on the web port, even to the token", async () => {
      const res = await fetch(`${server!.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(res.status).toBe(404);
      expect((await fetch(`${server!.baseUrl}/livez`)).status).toBe(200);
    });

    it("says that telemetry is off, in the banner and the listening log line", async () => {
      expect(server!.output()).toContain("\nTelemetry off (TELEMETRY=on exports traces and metrics)\n");
      // The log is written asynchronously: the banner may come first.
      const listening = await waitFor(() => server!.output().split("\n").find((line) => line.includes('"msg":"listening"')), { what: "the listening log line" });
      expect(JSON.parse(listening)).toMatchObject({ telemetry: "off (TELEMETRY=on exports traces and metrics)" });
    });

    it("listens on no Prometheus port", async () => {
      const refused = await new Promise<string>((resolve) => {
        const socket = connect(prometheusPort, "127.0.0.1");
        socket.once("connect", () => {
          socket.destroy();
          resolve("connected");
        });
        socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
      });
      expect(refused).toBe("ECONNREFUSED");
    });
  });
});
