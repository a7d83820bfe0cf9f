import request from "supertest";
import type { Client } from "@modelcontextprotocol/client";
import { pushArtifact, validatedArtifact } from "../support/artifacts";
import { createWorkspaceWithKey, importContent, type WorkspaceWithKey } from "../support/factories";
import { callTool, connectMcpClient, connectV1Client, errorText, listen, type ListeningApp, type ToolCaller } from "../support/mcp-client";
import { createTestApp, type TestApp } from "../support/test-app";

// The optional filters of the MCP `search` tool: the arguments of searchArtifacts, as REST's query
// parameters are, through the official clients.

let t: TestApp;
let http: ListeningApp;
let ws: WorkspaceWithKey;
let other: WorkspaceWithKey;
let client: Client;
const ids: Record<string, string> = {};

const T0 = Date.UTC(2026, 2, 1);
const DAY = 86_400_000;
const QUERY = "revenue growth by region";

beforeAll(async () => {
  t = await createTestApp();
  http = await listen(t.app);
  ws = await createWorkspaceWithKey(t.services);
  other = await createWorkspaceWithKey(t.services);
  const artifact = (summary: string, confidence: number, createdAt: number, validatedAt: number, source?: string) => ({
    summary,
    why: "Revenue growth shows where to invest",
    confidence,
    confidenceExplanation: "Booked revenue",
    createdAt,
    validatedAt,
    ...(source ? { dataSources: [{ type: "database" as const, name: source }] } : {}),
  });
  const { artifactIds } = await importContent(t.services, ws.workspaceId, {
    artifacts: [
      artifact("APAC revenue growth by region led by Japan", 0.9, T0, T0 + 2 * DAY, "warehouse"),
      artifact("EMEA revenue growth by region slowed in Q2", 0.6, T0 + 10 * DAY, T0 + 11 * DAY, "crm"),
      artifact("North America revenue growth by region held steady", 0.75, T0 + 20 * DAY, T0 + 30 * DAY, "warehouse"),
      artifact("LATAM revenue growth by region doubled from a small base", 0.5, T0 + 30 * DAY, T0 + 31 * DAY),
    ],
  });
  [ids.apac, ids.emea, ids.na, ids.latam] = artifactIds as [string, string, string, string];
  ids.draft = await pushArtifact(t, ws.auth, { summary: "Draft: revenue growth by region", confidence: 0.99, dataSources: [{ type: "database", name: "warehouse" }] });
  ids.foreign = await validatedArtifact(t, other.auth, {
    summary: "Revenue growth by region in another workspace",
    confidence: 0.99,
    dataSources: [{ type: "database", name: "warehouse" }, { type: "database", name: "other-ledger" }],
  });
  await t.services.indexer.runOnce();
  client = await connectMcpClient(http.baseUrl, ws.key);
});

afterAll(async () => {
  await client.close();
  await http.close();
  await t.close();
});

const label = (id: string) => Object.entries(ids).find(([, value]) => value === id)?.[0] ?? id;

async function viaMcp(args: Record<string, unknown>, caller: ToolCaller = client): Promise<string[]> {
  const result = await callTool(caller, "search", { query: QUERY, limit: 20, ...args });
  expect(result.isError).toBeFalsy();
  return (result.structuredContent as { results: Array<{ id: string }> }).results.map((r) => label(r.id));
}

async function viaRest(params: Record<string, unknown>): Promise<string[]> {
  const res = await request(t.app).get("/api/v1/artifacts").query({ query: QUERY, limit: 20, ...params }).set(ws.auth).expect(200);
  return res.body.results.map((r: { id: string }) => label(r.id));
}

describe("the search tool's filters", () => {
  it("lists them as optional arguments beside query, with their types and limits", async () => {
    const search = (await client.listTools()).tools.find((tool) => tool.name === "search")!;
    expect(search.inputSchema.required).toEqual(["query"]);
    expect(search.inputSchema.properties).toMatchObject({
      createdAfter: { type: "integer" },
      createdBefore: { type: "integer" },
      validatedAfter: { type: "integer" },
      validatedBefore: { type: "integer" },
      dataSource: { type: "string", minLength: 1, maxLength: 500 },
      minConfidence: { type: "number", minimum: 0, maximum: 1 },
    });
    for (const name of ["createdAfter", "dataSource", "minConfidence"]) {
      expect((search.inputSchema.properties![name] as { description?: string }).description).toMatch(/^Optional: /);
    }
  });

  it("answers a call with query alone as before, as OpenAI's connectors send it", async () => {
    const result = await callTool(client, "search", { query: QUERY });
    expect((result.structuredContent as { results: unknown[] }).results.map((r) => label((r as { id: string }).id)).sort()).toEqual(["apac", "emea", "latam", "na"]);
  });

  it.each([
    ["createdAfter", { createdAfter: T0 + 10 * DAY }, ["emea", "latam", "na"]],
    ["createdBefore", { createdBefore: T0 + 10 * DAY }, ["apac", "emea"]],
    ["validatedAfter", { validatedAfter: T0 + 30 * DAY }, ["latam", "na"]],
    ["validatedBefore", { validatedBefore: T0 + 11 * DAY }, ["apac", "emea"]],
    ["dataSource", { dataSource: "warehouse" }, ["apac", "na"]],
    ["minConfidence", { minConfidence: 0.75 }, ["apac", "na"]],
    ["several at once", { dataSource: "warehouse", minConfidence: 0.8, createdBefore: T0 + 40 * DAY }, ["apac"]],
  ])("keeps what %s keeps, the same artifacts in the same order as REST", async (_name, filters, expected) => {
    const mcp = await viaMcp(filters);
    expect([...mcp].sort()).toEqual(expected);
    expect(mcp).toEqual(await viaRest(filters));
  });

  it("never returns drafts or another workspace's artifacts, and answers nothing for another workspace's data source", async () => {
    expect((await viaMcp({ dataSource: "warehouse", minConfidence: 0.9 })).sort()).toEqual(["apac"]);
    expect(await viaMcp({ dataSource: "other-ledger" })).toEqual([]);
  });

  it("takes the filters from clients of the 1.x SDK too", async () => {
    const v1 = await connectV1Client(http.baseUrl, ws.key);
    try {
      expect((await viaMcp({ dataSource: "crm", createdAfter: T0 }, v1)).sort()).toEqual(["emea"]);
    } finally {
      await v1.close();
    }
  });

  it.each([
    ["createdAfter", { createdAfter: T0 + DAY, createdBefore: T0 }],
    ["validatedAfter", { validatedAfter: T0 + DAY, validatedBefore: T0 }],
    ["createdAfter", { createdAfter: "2026-03-01" }],
    ["createdBefore", { createdBefore: 1.5 }],
    ["validatedAfter", { validatedAfter: 1e17 }],
    ["dataSource", { dataSource: "" }],
    ["dataSource", { dataSource: 42 }],
    ["minConfidence", { minConfidence: 1.5 }],
    ["minConfidence", { minConfidence: "high" }],
  ])("is a tool error naming %s for %j, not a server error", async (name, args) => {
    const result = await callTool(client, "search", { query: QUERY, ...args });
    expect(result.isError).toBe(true);
    expect(errorText(result)).toContain(name);
    expect(errorText(result)).not.toMatch(/Internal error/);
  });
});
