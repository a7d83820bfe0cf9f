import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import request from "supertest";
import { createWorkspaceWithKey, importContent, type WorkspaceWithKey } from "../support/factories";
import { freePort } from "../support/free-port";
import { callTool, connectMcpClient, listen, textJson, type ListeningApp } from "../support/mcp-client";
import { parsePrometheusText, samplesOf } from "../support/prometheus-text";
import { exitOf, SERVER_TEST_TIMEOUT_MS, startServer, type Started } from "../support/server-process";
import { createTestApp, type TestApp } from "../support/test-app";
import { waitFor } from "../support/wait-for";

const MEMORY_QUERY = "which accounts to leave out of metrics";
const ARTIFACT_QUERY = "enterprise customers cancelling";
const QUESTION = "ARR per quarter";

/** The structured result of a tool call, checked to be the same JSON as its one text item. */
async function structured(client: Client, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await callTool(client, name, args);
  expect(result.isError).toBeFalsy();
  expect(textJson(result)).toEqual(result.structuredContent);
  return result.structuredContent as Record<string, unknown>;
}

describe("a search that used the query's meaning says hybrid", () => {
  let t: TestApp;
  let http: ListeningApp;
  let ws: WorkspaceWithKey;
  let client: Client;

  beforeAll(async () => {
    t = await createTestApp();
    http = await listen(t.app);
    ws = await createWorkspaceWithKey(t.services);
    await importContent(t.services, ws.workspaceId, {
      memories: [{ type: "rule", statement: "Exclude test accounts from every metric" }],
      dataSources: [
        {
          name: "finance lake",
          connectorType: "postgres",
          status: "connected",
          queryPatterns: [{ question: "Booked ARR by fiscal quarter", sql: "SELECT quarter, sum(amount) FROM arr GROUP BY 1", successCount: 7 }],
        },
      ],
    });
    await t.services.indexer.runOnce();
    client = await connectMcpClient(http.baseUrl, ws.key);
  });

  afterAll(async () => {
    await client?.close();
    await http?.close();
    await t?.close();
  });

  it("sends X-Search-Mode: hybrid on artifact search, memory recall and query intelligence", async () => {
    for (const [url, query] of [
      ["/api/v1/artifacts", { query: ARTIFACT_QUERY }],
      ["/api/v1/memories", { query: MEMORY_QUERY }],
      ["/api/v1/data-sources/finance%20lake/query-intelligence", { question: QUESTION }],
    ] as const) {
      const res = await request(t.app).get(url).query(query).set(ws.auth).expect(200);
      expect(res.headers["x-search-mode"]).toBe("hybrid");
      expect(res.body).not.toHaveProperty("searchMode");
    }
  });

  it("adds searchMode: hybrid to the structured results of search, recall_memories and get_query_intelligence", async () => {
    expect(await structured(client, "search", { query: ARTIFACT_QUERY })).toMatchObject({ searchMode: "hybrid" });
    expect(await structured(client, "recall_memories", { query: MEMORY_QUERY })).toMatchObject({ searchMode: "hybrid", hits: [{ statement: "Exclude test accounts from every metric" }] });
    expect(await structured(client, "get_query_intelligence", { name: "finance lake", question: QUESTION })).toMatchObject({ searchMode: "hybrid" });
  });

  it("declares searchMode in the output schemas of those tools", async () => {
    const { tools } = await client.listTools();
    for (const name of ["search", "recall_memories", "get_query_intelligence"]) {
      const schema = tools.find((tool) => tool.name === name)!.outputSchema as { properties: Record<string, { enum?: string[] }> };
      expect(schema.properties.searchMode?.enum).toEqual(["hybrid", "lexical"]);
    }
  });
});

// The real entry point with a query budget no model can meet (EMBEDDINGS_QUERY_BUDGET_MS=0): every
// search answers by words alone, and says so to the caller, the log and the metrics.
describe("a search whose query vector missed its budget says lexical", () => {
  const METRICS_TOKEN = "metrics-token-0123456789abcdef0123456789";
  let dataDir: string;
  let server: Started | undefined;
  let key: string;
  let client: Client | undefined;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), "wsi-search-mode-"));
    server = await startServer(dataDir, {
      EMBEDDINGS_QUERY_BUDGET_MS: "0",
      TELEMETRY: "on",
      OTEL_TRACES_EXPORTER: "none",
      OTEL_METRICS_EXPORTER: "prometheus",
      OTEL_EXPORTER_PROMETHEUS_HOST: "127.0.0.1",
      OTEL_EXPORTER_PROMETHEUS_PORT: String(await freePort()),
      METRICS_TOKEN,
    });
    key = /API_KEY=(wsi_[0-9A-Za-z]+)/.exec(server.output())![1]!;
    client = await connectMcpClient(server.baseUrl, key);
  }, SERVER_TEST_TIMEOUT_MS);

  afterAll(async () => {
    await client?.close();
    if (server && server.child.exitCode === null) {
      const exited = exitOf(server.child);
      server.child.kill("SIGTERM");
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) => fetch(`${server!.baseUrl}${url}`, { headers: { authorization: `Bearer ${key}`, ...headers } });

  it("sends X-Search-Mode: lexical and still answers by words", async () => {
    const artifacts = await get(`/api/v1/artifacts?query=${encodeURIComponent(ARTIFACT_QUERY)}`);
    expect(artifacts.status).toBe(200);
    expect(artifacts.headers.get("x-search-mode")).toBe("lexical");
    expect(((await artifacts.json()) as { results: unknown[] }).results.length).toBeGreaterThan(0);

    const memories = await get(`/api/v1/memories?query=${encodeURIComponent("churn")}`);
    expect(memories.status).toBe(200);
    expect(memories.headers.get("x-search-mode")).toBe("lexical");

    const sources = (await (await get("/api/v1/data-sources")).json()) as { items: Array<{ name: string }> };
    const name = sources.items[0]!.name;
    const intelligence = await get(`/api/v1/data-sources/${encodeURIComponent(name)}/query-intelligence?question=${encodeURIComponent("revenue by month")}`);
    expect(intelligence.status).toBe(200);
    expect(intelligence.headers.get("x-search-mode")).toBe("lexical");
  });

  it("adds searchMode: lexical to the MCP tools' structured results", async () => {
    expect(await structured(client!, "search", { query: ARTIFACT_QUERY })).toMatchObject({ searchMode: "lexical" });
    expect(await structured(client!, "recall_memories", { query: "churn" })).toMatchObject({ searchMode: "lexical" });
  });

  it("logs a warning with the operation, the workspace and the time waited, never the query", async () => {
    await get(`/api/v1/memories?query=${encodeURIComponent("a secret partner question")}`);
    const line = await waitFor(
      () =>
        server!
          .output()
          .split("\n")
          .filter((text) => text.includes("search mode lexical"))
          .map((text) => JSON.parse(text) as Record<string, unknown>)
          .find((entry) => entry.operation === "memories"),
      { what: "the lexical fallback's log line" },
    );
    expect(line).toMatchObject({ level: 40, operation: "memories", workspaceId: expect.stringMatching(/^ws_/), waitedMs: expect.any(Number) });
    expect(server!.output()).not.toContain("secret partner question");
  });

  it("counts the fallbacks by search in wsi_search_lexical_fallbacks_total", async () => {
    await get(`/api/v1/artifacts?query=${encodeURIComponent(ARTIFACT_QUERY)}`);
    const samples = await waitFor(
      async () => {
        const res = await get("/metrics", { authorization: `Bearer ${METRICS_TOKEN}` });
        const now = parsePrometheusText(await res.text());
        return samplesOf(now, "wsi_search_lexical_fallbacks_total", { wsi_search_operation: "artifacts" }).length > 0 && now;
      },
      { what: "the fallback counter" },
    );
    expect(samplesOf(samples, "wsi_search_lexical_fallbacks_total", { wsi_search_operation: "artifacts" })[0]!.value).toBeGreaterThanOrEqual(1);
    expect(samplesOf(samples, "wsi_search_lexical_fallbacks_total", { wsi_search_operation: "memories" })[0]!.value).toBeGreaterThanOrEqual(1);
  });
});
