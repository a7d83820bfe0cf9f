import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { callTool, connectMcpClient } from "../support/mcp-client";
import { freePort } from "../support/free-port";
import { startOtlpReceiver, type ReceivedSpan } from "../support/otlp-receiver";
import { parsePrometheusText, samplesOf } from "../support/prometheus-text";
import { exitOf, SERVER_TEST_TIMEOUT_MS, startServer, type Started } from "../support/server-process";
import { waitFor } from "../support/wait-for";

// The real entry point with TELEMETRY=on, exporting over OTLP/HTTP (JSON, to read it here) to a
// receiver standing in for a collector, and serving Prometheus text on its own port and, to the
// token, on the web port. The embedded engine has no `pg`: its statements are Prisma's spans, and
// its driver's (`pglite.query`), which a search's two statements and a fetch's go through. The
// sampler is the specification's plain always_on, which the process must accept as it does the default.
const METRICS_TOKEN = "metrics-token-0123456789abcdef0123456789";
const SEARCH_TEXT = "enterprise customers cancelling";
const SPAN_SERVER = 2;
const SPAN_CLIENT = 3;

describe("telemetry on: the server process", () => {
  let dataDir: string;
  let server: Started | undefined;
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let prometheusPort: number;
  let key: string;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    prometheusPort = await freePort();
    dataDir = mkdtempSync(path.join(os.tmpdir(), "wsi-telemetry-"));
    server = await startServer(dataDir, {
      TELEMETRY: "on",
      OTEL_TRACES_EXPORTER: "otlp",
      OTEL_METRICS_EXPORTER: "otlp,prometheus",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_TRACES_SAMPLER: "always_on",
      OTEL_BSP_SCHEDULE_DELAY: "100",
      OTEL_METRIC_EXPORT_INTERVAL: "1000",
      OTEL_EXPORTER_PROMETHEUS_HOST: "127.0.0.1",
      OTEL_EXPORTER_PROMETHEUS_PORT: String(prometheusPort),
      METRICS_TOKEN,
      RATE_LIMIT_AUTH_FAILURES: "1",
    });
    key = /API_KEY=(wsi_[0-9A-Za-z]+)/.exec(server.output())![1]!;
  }, SERVER_TEST_TIMEOUT_MS);

  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      // SIGTERM, which tsx hands on to the server: it stops, telemetry included, and exits.
      const exited = exitOf(server.child);
      server.child.kill("SIGTERM");
      await exited;
    }
    await receiver?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) => fetch(`${server!.baseUrl}${url}`, { headers: { authorization: `Bearer ${key}`, ...headers } });
  const scrape = async () => {
    const res = await get("/metrics", { authorization: `Bearer ${METRICS_TOKEN}` });
    expect(res.status).toBe(200);
    return parsePrometheusText(await res.text());
  };
  const spanOf = (spans: ReceivedSpan[], name: string, where: (span: ReceivedSpan) => boolean = () => true) => spans.find((span) => span.name === name && where(span));

  it("traces one search as one trace: HTTP server span, route span, the query embedding, the text and vector statements and their SQL, each under its parent", async () => {
    // The caller's own trace context, so that the request's trace is known in advance.
    const traceId = randomBytes(16).toString("hex");
    const callerSpanId = randomBytes(8).toString("hex");
    const res = await get(`/api/v1/artifacts?query=${encodeURIComponent(SEARCH_TEXT)}&limit=3`, { traceparent: `00-${traceId}-${callerSpanId}-01` });
    expect(res.status).toBe(200);

    const trace = await waitFor(
      () => {
        const spans = receiver.spans.filter((span) => span.traceId === traceId);
        const names = new Set(spans.map((span) => span.name));
        const complete = ["GET /api/v1/artifacts", "route /api/v1/artifacts", "hybrid search text", "hybrid search vector", "pglite.query", "prisma:client:db_query"].every((name) => names.has(name));
        return complete && spans.some((span) => span.attributes["wsi.embedding.lane"] === "query") && spans;
      },
      { what: "the search's spans at the receiver" },
    );
    const byId = new Map(trace.map((span) => [span.spanId, span]));
    const parentOf = (span: ReceivedSpan) => byId.get(span.parentSpanId ?? "");

    const http = spanOf(trace, "GET /api/v1/artifacts")!;
    expect(http.kind).toBe(SPAN_SERVER);
    expect(http.parentSpanId).toBe(callerSpanId);
    expect(http.attributes).toMatchObject({ "http.route": "/api/v1/artifacts", "http.response.status_code": 200, "url.path": "/api/v1/artifacts", "url.query": "query=REDACTED&limit=REDACTED" });

    const route = spanOf(trace, "route /api/v1/artifacts")!;
    expect(route.parentSpanId).toBe(http.spanId);

    const embedding = spanOf(trace, "embeddings universal-sentence-encoder-en", (span) => span.attributes["wsi.embedding.lane"] === "query")!;
    expect(embedding.parentSpanId).toBe(route.spanId);
    expect(embedding.attributes).toMatchObject({ "gen_ai.operation.name": "embeddings", "gen_ai.provider.name": "local", "gen_ai.request.model": "universal-sentence-encoder-en" });

    const text = spanOf(trace, "hybrid search text")!;
    const vector = spanOf(trace, "hybrid search vector")!;
    for (const half of [text, vector]) {
      expect(half.parentSpanId).toBe(route.spanId);
      expect(half.attributes["db.collection.name"]).toBe("artifacts");
      // Each half's statement, through the driver, under the half: its SQL text, never its parameters.
      const statement = trace.find((span) => span.name === "pglite.query" && span.parentSpanId === half.spanId)!;
      expect(statement.kind).toBe(SPAN_CLIENT);
      expect(statement.attributes).toMatchObject({ "db.system.name": "postgresql", "db.query.text": expect.stringContaining("search_query") });
    }
    // Every statement of the request is in its trace, under the route: the halves' and Prisma's (the vocabulary's).
    const statements = trace.filter((span) => span.name === "pglite.query" || span.name === "prisma:client:db_query");
    expect(statements.length).toBeGreaterThanOrEqual(3);
    for (const statement of statements) {
      let ancestor = parentOf(statement);
      while (ancestor && ancestor !== route) ancestor = parentOf(ancestor);
      expect(ancestor).toBe(route);
    }

    // Neither the search text nor the key is in any span: parameters are never recorded.
    const everything = JSON.stringify(receiver.spans);
    expect(everything).not.toContain(key);
    expect(everything).not.toContain("cancelling");
  });

  it("serves the named series as Prometheus text, to the token on the web port and on its own port", async () => {
    const list = await (await get("/api/v1/artifacts?query=churn&limit=1")).json();
    const id = (list as { results: Array<{ id: string }> }).results[0]!.id;
    expect((await get(`/api/v1/artifacts/${id}?unused=1`)).status).toBe(200);

    expect((await fetch(`${server!.baseUrl}/metrics`)).status).toBe(401);
    expect((await get("/metrics", { authorization: "Bearer wrong-token" })).status).toBe(401);
    const samples = await scrape();

    // RED by route template and status code: no id or query string in any label.
    expect(samplesOf(samples, "http_server_request_duration_count", { http_route: "/api/v1/artifacts", http_response_status_code: "200" })[0]!.value).toBeGreaterThanOrEqual(2);
    expect(samplesOf(samples, "http_server_request_duration_count", { http_route: "/api/v1/artifacts/:id", http_response_status_code: "200" })).toHaveLength(1);
    expect(samplesOf(samples, "http_server_request_duration_bucket", { http_route: "/api/v1/artifacts", le: "+Inf" })).toHaveLength(1);
    for (const sample of samples) for (const value of Object.values(sample.labels)) expect(value).not.toMatch(/art_|\?|churn/);

    expect(samplesOf(samples, "gen_ai_client_operation_duration_count", { gen_ai_operation_name: "embeddings", wsi_embedding_lane: "query" })[0]!.value).toBeGreaterThanOrEqual(2);
    // The indexer embeds the Demo workspace's rows in the background after the first start.
    const indexed = await waitFor(
      async () => {
        const now = await scrape();
        return samplesOf(now, "wsi_embedding_vectors_total").some((sample) => sample.value > 0) && now;
      },
      { what: "the first vectors stored", everyMs: 250 },
    );
    expect(samplesOf(indexed, "gen_ai_client_operation_duration_count", { wsi_embedding_lane: "index" })[0]!.value).toBeGreaterThan(0);
    for (const [table, tiers] of [["artifacts", ["0", "1"]], ["memories", ["0", "1"]], ["queryPatterns", ["0"]], ["errorLearnings", ["0"]]] as const) {
      for (const tier of tiers) {
        expect(samplesOf(samples, "wsi_embedding_backlog", { wsi_embedding_table: table, wsi_embedding_tier: tier })).toHaveLength(1);
        expect(samplesOf(samples, "wsi_embedding_backlog_age", { wsi_embedding_table: table, wsi_embedding_tier: tier })).toHaveLength(1);
      }
      expect(samplesOf(samples, "wsi_embedding_failed", { wsi_embedding_table: table })).toEqual([expect.objectContaining({ value: 0 })]);
    }
    expect(samplesOf(samples, "process_memory_usage")[0]!.value).toBeGreaterThan(10_000_000);
    expect(samplesOf(samples, "v8js_memory_heap_used").length).toBeGreaterThan(0);

    const ownPort = await fetch(`http://127.0.0.1:${prometheusPort}/metrics`);
    expect(ownPort.status).toBe(200);
    expect(samplesOf(parsePrometheusText(await ownPort.text()), "http_server_request_duration_count").length).toBeGreaterThan(0);
  });

  it("traces an MCP tool call as a tools/call span under the request's route, and counts it by tool and outcome", async () => {
    const client = await connectMcpClient(server!.baseUrl, key);
    try {
      expect((await callTool(client, "search", { query: "churn" })).isError).toBeFalsy();
      expect((await callTool(client, "fetch", { id: "art_0000000000000000000000" })).isError).toBe(true);
    } finally {
      await client.close();
    }
    const search = await waitFor(() => spanOf(receiver.spans, "tools/call search"), { what: "the tools/call span" });
    expect(search.kind).toBe(SPAN_SERVER);
    expect(search.attributes).toMatchObject({ "mcp.method.name": "tools/call", "gen_ai.tool.name": "search", "gen_ai.operation.name": "execute_tool" });
    expect(search.attributes["error.type"]).toBeUndefined();
    const route = await waitFor(() => receiver.spans.find((span) => span.spanId === search.parentSpanId), { what: "the tool call's parent" });
    expect(route.name).toBe("route /mcp");
    const http = await waitFor(() => receiver.spans.find((span) => span.spanId === route.parentSpanId), { what: "the MCP request's server span" });
    expect(http).toMatchObject({ name: "POST /mcp", kind: SPAN_SERVER, traceId: search.traceId });
    // The tool's own search statements are in the call's span.
    await waitFor(() => receiver.spans.some((span) => span.name === "hybrid search text" && span.traceId === search.traceId), { what: "the tool's search spans" });

    const refused = await waitFor(() => spanOf(receiver.spans, "tools/call fetch"), { what: "the refused call's span" });
    expect(refused.attributes["error.type"]).toBe("tool_error");

    const samples = await scrape();
    expect(samplesOf(samples, "mcp_server_operation_duration_count", { mcp_method_name: "tools/call", gen_ai_tool_name: "search" })).toEqual([
      expect.objectContaining({ value: 1, labels: expect.not.objectContaining({ error_type: expect.anything() }) }),
    ]);
    expect(samplesOf(samples, "mcp_server_operation_duration_count", { gen_ai_tool_name: "fetch", error_type: "tool_error" })).toEqual([expect.objectContaining({ value: 1 })]);
  });

  it("sends metrics over OTLP too", async () => {
    await waitFor(() => ["http.server.request.duration", "wsi.embedding.backlog", "gen_ai.client.operation.duration"].every((name) => receiver.metricNames.has(name)), {
      what: "the metrics at the receiver",
    });
    expect(receiver.contentTypes).toEqual(expect.arrayContaining(["/v1/traces application/json", "/v1/metrics application/json"]));
  });

  it("counts rate-limit refusals by limiter", async () => {
    // RATE_LIMIT_AUTH_FAILURES=1: the second refused key from this address is answered 429.
    expect((await get("/api/v1/briefing", { authorization: "Bearer wsi_unknown" })).status).toBe(401);
    expect((await get("/api/v1/briefing", { authorization: "Bearer wsi_unknown" })).status).toBe(429);
    const samples = await scrape();
    expect(samplesOf(samples, "wsi_rate_limit_refusals_total", { wsi_rate_limit_limiter: "auth-failures" })).toEqual([expect.objectContaining({ value: 1 })]);
  });
});
