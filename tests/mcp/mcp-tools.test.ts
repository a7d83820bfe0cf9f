import request from "supertest";
import type { Scope } from "../../src/auth/scopes";
import type { Client } from "@modelcontextprotocol/client";
import { pushArtifact, validatedArtifact, disputeArtifact } from "../support/artifacts";
import { createKey, createWorkspaceWithKey, importContent, type WorkspaceWithKey } from "../support/factories";
import { callTool, connectMcpClient, errorText, listen, textJson, type ListeningApp } from "../support/mcp-client";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let http: ListeningApp;
let ws: WorkspaceWithKey;
let other: WorkspaceWithKey;
let full: Client;
const ids: Record<string, string> = {};

const REPORT = {
  root: "root",
  elements: {
    root: { type: "Section", props: {}, children: ["intro", "metrics", "callout", "table", "sql"] },
    intro: { type: "Markdown", props: { content: "## Why accounts leave\nMost churned accounts never finished onboarding." } },
    metrics: {
      type: "MetricRow",
      props: { items: [{ label: "Enterprise churn", value: "8.3%", change: "+4.2 pts", direction: "up" }, { label: "Team churn", value: "2.1%" }] },
    },
    callout: { type: "Callout", props: { type: "warning", text: "EMEA renewals are due in October" } },
    table: { type: "DataTable", props: { caption: "By region", columns: ["Region", "Churn"], rows: [["EMEA", "11%"], ["NA", "6%"]] } },
    sql: { type: "SqlEvidence", props: { connectionName: "warehouse", sql: "SELECT region, churn FROM monthly_churn" } },
    orphan: { type: "Markdown", props: { content: "not reachable from the root" } },
  },
};

beforeAll(async () => {
  t = await createTestApp();
  http = await listen(t.app);
  ws = await createWorkspaceWithKey(t.services, { workspaceName: "Acme" });
  other = await createWorkspaceWithKey(t.services, { workspaceName: "Globex" });
  ids.churn = await validatedArtifact(t, ws.auth, {
    summary: "Enterprise customer churn doubled in the third quarter",
    why: "Losing large accounts erodes recurring revenue",
    keyFindings: ["Churn 4.1% -> 8.3%", "Concentrated in EMEA"],
    recommendations: [{ type: "recommendation", text: "Call every EMEA account up for renewal" }],
    confidenceExplanation: "Fourteen months of subscription data",
    dataSources: [{ type: "database", name: "warehouse" }],
    content: REPORT,
  });
  ids.cac = await validatedArtifact(t, ws.auth, {
    summary: "Paid search acquisition cost rose 40% after the bidding change",
    why: "Marketing spend efficiency is falling",
    confidenceExplanation: "Ad platform invoices for two quarters",
  });
  ids.apac = await validatedArtifact(t, ws.auth, {
    summary: "APAC revenue grew 12% quarter over quarter, led by Japan",
    why: "Regional expansion is paying off",
    confidenceExplanation: "Booked revenue by country",
  });
  ids.long = await validatedArtifact(t, ws.auth, {
    summary: "Raw export of the general ledger",
    why: "Auditors asked for the full file",
    confidenceExplanation: "Straight from the ledger",
    content: "x".repeat(25_000),
  });
  ids.draft = await pushArtifact(t, ws.auth, { summary: "Draft: warehouse stockouts caused lost orders" });
  ids.disputed = await pushArtifact(t, ws.auth, { summary: "Disputed: support tickets resolved faster" });
  await disputeArtifact(t, ids.disputed);
  ids.foreign = await validatedArtifact(t, other.auth, {
    summary: "Globex enterprise customers cancel more in the third quarter",
    why: "Globex's own churn finding",
  });
  await t.services.indexer.runOnce();
  full = await connectMcpClient(http.baseUrl, ws.key);
});

afterAll(async () => {
  await full.close();
  await http.close();
  await t.close();
});

async function clientWithScopes(scopes: Scope[]): Promise<Client> {
  const key = await createKey(t.services, ws.workspaceId, { scopes });
  return connectMcpClient(http.baseUrl, key.key);
}

describe("tools/list", () => {
  it("lists the eight read-only tools, each with an output schema, to a key without scopes", async () => {
    const { tools } = await full.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "search",
      "fetch",
      "get_briefing",
      "recall_memories",
      "list_data_sources",
      "get_query_intelligence",
      "list_skills",
      "get_skill_file",
    ]);
    for (const tool of tools) {
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      expect(tool.outputSchema).toMatchObject({ type: "object" });
    }
  });

  it("shows a key scoped to artifacts:read only search and fetch", async () => {
    const client = await clientWithScopes(["artifacts:read"]);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["search", "fetch"]);
    await client.close();
  });

  it("shows a key scoped to data:read and skills:read only their four tools", async () => {
    const client = await clientWithScopes(["data:read", "skills:read"]);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      "list_data_sources",
      "get_query_intelligence",
      "list_skills",
      "get_skill_file",
    ]);
    await client.close();
  });

  it("refuses a call to a tool outside the key's scopes as it refuses an unknown tool", async () => {
    const client = await clientWithScopes(["data:read"]);
    await expect(callTool(client, "search", { query: "churn" })).rejects.toThrow("Tool search not found");
    await expect(callTool(client, "no_such_tool")).rejects.toThrow("Tool no_such_tool not found");
    await client.close();
  });
});

describe("search", () => {
  it("ranks the validated artifact a paraphrase describes first", async () => {
    // No word in common with "APAC revenue grew 12% quarter over quarter, led by Japan".
    const result = await callTool(full, "search", { query: "sales in Asia increased, mostly thanks to Tokyo" });
    expect(result.isError).toBeFalsy();
    const { results } = result.structuredContent as { results: Array<{ id: string }> };
    expect(results[0]!.id).toBe(ids.apac);
  });

  it("ranks exactly as GET /api/v1/artifacts does", async () => {
    const query = "regional sales growth in Asia";
    const rest = await request(t.app).get("/api/v1/artifacts").query({ query, limit: 5 }).set(ws.auth).expect(200);
    const { results } = (await callTool(full, "search", { query, limit: 5 })).structuredContent as { results: Array<{ id: string }> };
    expect(results.map((result) => result.id)).toEqual(rest.body.results.map((result: { id: string }) => result.id));
  });

  it("answers one text item holding {results: [{id, title, url}]}, the same as structuredContent", async () => {
    const result = await callTool(full, "search", { query: "advertising became more expensive per new signup", limit: 2 });
    const body = textJson(result) as { results: Array<Record<string, string>> };
    expect(body).toEqual(result.structuredContent);
    // The relevance floor may leave fewer than `limit`; never more.
    expect(body.results.length).toBeGreaterThanOrEqual(1);
    expect(body.results.length).toBeLessThanOrEqual(2);
    expect(body.results[0]).toEqual({
      id: ids.cac,
      title: "Paid search acquisition cost rose 40% after the bidding change",
      url: `${http.baseUrl}/console/artifacts/${ids.cac}`,
    });
  });

  it("never returns drafts, disputed artifacts or another workspace's artifacts", async () => {
    const seen = new Set<string>();
    for (const query of ["warehouse stockouts caused lost orders", "support tickets resolved faster", "Globex enterprise customers cancel"]) {
      const { results } = (await callTool(full, "search", { query, limit: 20 })).structuredContent as { results: Array<{ id: string }> };
      for (const result of results) seen.add(result.id);
    }
    expect(seen.has(ids.draft!)).toBe(false);
    expect(seen.has(ids.disputed!)).toBe(false);
    expect(seen.has(ids.foreign!)).toBe(false);
  });

  it("is a tool error for an empty query", async () => {
    const result = await callTool(full, "search", { query: "" });
    expect(result.isError).toBe(true);
    expect(errorText(result)).toMatch(/query/);
  });

  it("is a tool error for a limit above 20", async () => {
    const result = await callTool(full, "search", { query: "churn", limit: 21 });
    expect(result.isError).toBe(true);
    expect(errorText(result)).toMatch(/limit/);
  });

  it("is a tool error, not a server error, for a query with a NUL character", async () => {
    const result = await callTool(full, "search", { query: "churn\u0000" });
    expect(result.isError).toBe(true);
    expect(errorText(result)).toMatch(/query: contains a NUL character/);
  });
});

describe("fetch", () => {
  it("answers {id, title, text, url, metadata} with the artifact's readable text", async () => {
    const result = await callTool(full, "fetch", { id: ids.churn });
    const body = textJson(result) as { id: string; title: string; text: string; url: string; metadata: Record<string, unknown> };
    expect(body).toEqual(result.structuredContent);
    expect(body).toMatchObject({
      id: ids.churn,
      title: "Enterprise customer churn doubled in the third quarter",
      url: `${http.baseUrl}/console/artifacts/${ids.churn}`,
      metadata: { confidence: 0.8, dataSources: [{ type: "database", name: "warehouse" }], truncated: false },
    });
    for (const part of [
      "Losing large accounts erodes recurring revenue",
      "- Churn 4.1% -> 8.3%",
      "Recommendations:\n- Call every EMEA account up for renewal",
      "Confidence: 0.8. Fourteen months of subscription data",
      "## Why accounts leave\nMost churned accounts never finished onboarding.",
      "Enterprise churn: 8.3% (+4.2 pts)",
      "warning: EMEA renewals are due in October",
      "EMEA | 11%",
      "SELECT region, churn FROM monthly_churn",
    ]) {
      expect(body.text).toContain(part);
    }
    expect(body.text).not.toContain("not reachable from the root");
  });

  it("cuts the text at 20,000 characters and says so in metadata", async () => {
    const body = (await callTool(full, "fetch", { id: ids.long })).structuredContent as { text: string; metadata: { truncated: boolean } };
    expect(body.text).toHaveLength(20_000);
    expect(body.metadata.truncated).toBe(true);
  });

  it.each([
    ["a draft", "draft"],
    ["a disputed artifact", "disputed"],
    ["another workspace's artifact", "foreign"],
  ])("is a tool error saying not found for %s", async (_label, which) => {
    const result = await callTool(full, "fetch", { id: ids[which] });
    expect(result.isError).toBe(true);
    expect(errorText(result)).toBe(`Artifact ${ids[which]} not found`);
  });

  it("is a tool error saying not found for an unknown id", async () => {
    const result = await callTool(full, "fetch", { id: "art_unknown" });
    expect(result).toMatchObject({ isError: true, content: [{ type: "text", text: "Artifact art_unknown not found" }] });
  });

  it("is a tool error when id is missing", async () => {
    const result = await callTool(full, "fetch", {});
    expect(result.isError).toBe(true);
    expect(errorText(result)).toMatch(/id/);
  });
});

describe("workspace isolation", () => {
  it("searches and fetches only the key's own workspace", async () => {
    const client = await connectMcpClient(http.baseUrl, other.key);
    const { results } = (await callTool(client, "search", { query: "enterprise customer churn third quarter", limit: 20 }))
      .structuredContent as { results: Array<{ id: string }> };
    expect(results.map((result) => result.id)).toEqual([ids.foreign]);
    expect((await callTool(client, "fetch", { id: ids.churn })).isError).toBe(true);
    await client.close();
  });
});
