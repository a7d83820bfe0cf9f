import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import os from "node:os";
import path from "node:path";
import { freePort } from "../support/free-port";
import { exitOf, SERVER_TEST_TIMEOUT_MS, startServer, type Started } from "../support/server-process";
import { waitFor } from "../support/wait-for";

// The real entry point with TELEMETRY=on and its OTLP endpoint on a local port where nothing
// listens, then something that drops every connection, then something that accepts: the operator
// is told where telemetry goes, once that it does not get there, and once that it does again.
const SECRET_IN_URL = "url-secret-0123456789";
const SECRET_IN_HEADERS = "header-secret-0123456789";

interface LogLine {
  level: number;
  component?: string;
  msg: string;
  telemetry?: string;
}

const logLines = (output: string): LogLine[] =>
  output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogLine);
const telemetryWarnings = (output: string) => logLines(output).filter((line) => line.component === "opentelemetry" && line.level >= 40);

describe("telemetry on, with a collector that is not there", () => {
  let dataDir: string;
  let server: Started | undefined;
  let collector: Server | undefined;
  let port: number;
  let mode: "drop" | "accept" = "drop";
  let requests = 0;

  beforeAll(async () => {
    port = await freePort();
    dataDir = mkdtempSync(path.join(os.tmpdir(), "wsi-telemetry-unreachable-"));
    server = await startServer(dataDir, {
      TELEMETRY: "on",
      OTEL_TRACES_EXPORTER: "otlp",
      OTEL_METRICS_EXPORTER: "otlp",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://telemetry:${SECRET_IN_URL}@127.0.0.1:${port}`,
      OTEL_EXPORTER_OTLP_HEADERS: `x-api-key=${SECRET_IN_HEADERS}`,
      OTEL_EXPORTER_OTLP_TIMEOUT: "1000",
      OTEL_BSP_SCHEDULE_DELAY: "100",
      OTEL_METRIC_EXPORT_INTERVAL: "300",
    });
  }, SERVER_TEST_TIMEOUT_MS);

  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      const exited = exitOf(server.child);
      server.child.kill("SIGTERM");
      await exited;
    }
    if (collector) {
      collector.closeAllConnections();
      await new Promise((resolve) => collector!.close(resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("says where each signal goes, in the banner and the first log line, without the URL's credentials or the headers", async () => {
    const output = server!.output();
    const expected = `on: traces OTLP http/json to http://127.0.0.1:${port}/v1/traces; metrics OTLP http/json to http://127.0.0.1:${port}/v1/metrics`;
    expect(output).toContain(`\nTelemetry ${expected}\n`);
    const [first] = logLines(output);
    expect(first).toMatchObject({ component: "opentelemetry", telemetry: expected });
    // The log is written asynchronously: the banner may come first.
    const listening = await waitFor(() => logLines(server!.output()).find((line) => line.msg === "listening"), { what: "the listening log line" });
    expect(listening).toMatchObject({ telemetry: expected });
    expect(output).not.toContain(SECRET_IN_URL);
    expect(output).not.toContain(SECRET_IN_HEADERS);
  });

  it("warns once, naming the address, however many exports fail, and says when the collector answers again", async () => {
    const warned = await waitFor(() => telemetryWarnings(server!.output()).length > 0 && telemetryWarnings(server!.output()), {
      what: "the warning about the unreachable collector",
    });
    expect(warned).toHaveLength(1);
    expect(warned[0]!.msg).toMatch(new RegExp(`cannot export to http://127\\.0\\.0\\.1:${port}/v1/(traces|metrics) \\(.*ECONNREFUSED`));

    // Something listens now, and drops every request: exports keep failing, attempt after attempt.
    collector = createServer((req, res) => {
      if (mode === "drop") {
        requests += 1;
        req.socket.destroy();
        return;
      }
      req.resume();
      req.on("end", () => res.writeHead(200, { "Content-Type": "application/json" }).end("{}"));
    });
    await new Promise<void>((resolve) => collector!.listen(port, "127.0.0.1", resolve));
    // Traffic of our own, so that there are spans to export as well as metrics.
    await fetch(`${server!.baseUrl}/livez`);
    await fetch(`${server!.baseUrl}/api/v1/openapi.json`);
    await waitFor(() => requests >= 8, { what: "eight more failed exports" });
    expect(telemetryWarnings(server!.output())).toHaveLength(1);

    mode = "accept";
    await waitFor(() => logLines(server!.output()).some((line) => line.component === "opentelemetry" && /answers again/.test(line.msg)), {
      what: "the line saying the collector answers again",
    });
    expect(telemetryWarnings(server!.output())).toHaveLength(1);
    expect(server!.output()).not.toContain(SECRET_IN_URL);
    expect(server!.output()).not.toContain(SECRET_IN_HEADERS);
  });
});
