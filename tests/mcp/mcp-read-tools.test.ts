import type { Client } from "@modelcontextprotocol/client";
import request from "supertest";
import { createWorkspaceWithKey, importContent, type WorkspaceWithKey } from "../support/factories";
import { callTool, connectMcpClient, errorText, listen, textJson, type ListeningApp } from "../support/mcp-client";
import { churnSkill } from "../support/skill-fixtures";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let http: ListeningApp;
let ws: WorkspaceWithKey;
let client: Client;

beforeAll(async () => {
  t = await createTestApp();
  http = await listen(t.app);
  ws = await createWorkspaceWithKey(t.services);
  await importContent(t.services, ws.workspaceId, {
    context: "Fiscal year starts in April.",
    directives: [{ name: "No PII", content: "Never output customer e-mail addresses." }],
    memories: [
      { type: "rule", statement: "Exclude test accounts from every metric", goingForward: "Filter is_test = false" },
      { type: "definition", statement: "Churn means a paid account cancelled within the month" },
      { type: "preference", statement: "Charts use the brand palette" },
    ],
    dataSources: [
      {
        name: "finance lake",
        connectorType: "postgres",
        status: "connected",
        schema: [{ tableName: "arr", columns: [{ columnName: "amount", dataType: "numeric" }] }],
        tableAnnotations: [{ tableName: "arr", description: "Booked ARR", useCases: ["ARR"], gotchas: ["Amounts in cents"] }],
        queryPatterns: [{ question: "Booked ARR by fiscal quarter", sql: "SELECT quarter, sum(amount) FROM arr GROUP BY 1", successCount: 7 }],
        errorLearnings: [{ failedSql: "SELECT plan FROM arr", errorMessage: 'column "plan" does not exist', learning: "Join plans for plan names." }],
      },
    ],
    skills: [churnSkill()],
  });
  await t.services.indexer.runOnce();
  client = await connectMcpClient(http.baseUrl, ws.key);
});

afterAll(async () => {
  await client.close();
  await http.close();
  await t.close();
});

/** The tool's structured answer, checked to be the same JSON as its one text item. */
async function answer(name: string, args: Record<string, unknown> = {}): Promise<unknown> {
  const result = await callTool(client, name, args);
  expect(result.isError).toBeFalsy();
  expect(textJson(result)).toEqual(result.structuredContent);
  return result.structuredContent;
}

const rest = async (path: string, query: Record<string, string> = {}) =>
  (await request(t.app).get(path).query(query).set(ws.auth).expect(200)).body;

describe("tools beyond the contract answer exactly what their REST endpoint answers", () => {
  it("get_briefing is GET /api/v1/briefing", async () => {
    const briefing = await answer("get_briefing");
    expect(briefing).toEqual(await rest("/api/v1/briefing"));
    expect(briefing).toMatchObject({ workspace: { context: "Fiscal year starts in April." }, directivesAvailable: true });
  });

  it("recall_memories is GET /api/v1/memories, with how it ranked (REST's X-Search-Mode)", async () => {
    const { searchMode, ...recalled } = (await answer("recall_memories", { query: "which accounts to leave out of metrics" })) as { hits: Array<{ statement: string }>; searchMode: string };
    expect(searchMode).toBe("hybrid");
    expect(recalled).toEqual(await rest("/api/v1/memories", { query: "which accounts to leave out of metrics" }));
    expect(recalled.hits[0]!.statement).toBe("Exclude test accounts from every metric");
  });

  it("list_data_sources is GET /api/v1/data-sources", async () => {
    expect(await answer("list_data_sources")).toEqual(await rest("/api/v1/data-sources"));
  });

  it("get_query_intelligence is GET /api/v1/data-sources/{name}/query-intelligence, with how it ranked", async () => {
    const { searchMode, ...found } = (await answer("get_query_intelligence", { name: "finance lake", question: "ARR per quarter" })) as Record<string, unknown>;
    expect(searchMode).toBe("hybrid");
    expect(found).toEqual(await rest("/api/v1/data-sources/finance%20lake/query-intelligence", { question: "ARR per quarter" }));
    expect(found).toMatchObject({ patterns: [{ question: "Booked ARR by fiscal quarter" }] });
  });

  it("list_skills is GET /api/v1/skills", async () => {
    expect(await answer("list_skills")).toEqual(await rest("/api/v1/skills"));
  });

  it("get_skill_file is GET /api/v1/skills/{name}/files for a text file", async () => {
    const file = await answer("get_skill_file", { name: "churn-analysis", path: "SKILL.md" });
    expect(file).toEqual(await rest("/api/v1/skills/churn-analysis/files", { path: "SKILL.md" }));
  });

  it("get_skill_file answers a binary as an absolute download link that works without a key", async () => {
    const file = (await answer("get_skill_file", { name: "churn-analysis", path: "assets/curve.png" })) as { url: string; content: null };
    expect(file.content).toBeNull();
    expect(file.url.startsWith(`${http.baseUrl}/downloads/`)).toBe(true);
    const download = await fetch(file.url);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("image/png");
  });
});

describe("their errors are tool errors with REST's sentence", () => {
  it("get_query_intelligence of an unknown data source is not found", async () => {
    const result = await callTool(client, "get_query_intelligence", { name: "nope", question: "ARR" });
    expect(result).toMatchObject({ isError: true, content: [{ type: "text", text: 'No data source named "nope" in this workspace' }] });
  });

  it("get_skill_file of an unknown path is not found", async () => {
    const result = await callTool(client, "get_skill_file", { name: "churn-analysis", path: "missing.md" });
    expect(result.isError).toBe(true);
    expect(errorText(result)).toMatch(/not found|No file/i);
  });

  it("recall_memories with an empty query is refused", async () => {
    const result = await callTool(client, "recall_memories", { query: "" });
    expect(result.isError).toBe(true);
    expect(errorText(result)).toMatch(/query/);
  });

  it("get_query_intelligence without a question is refused", async () => {
    const result = await callTool(client, "get_query_intelligence", { name: "finance lake" });
    expect(result.isError).toBe(true);
    expect(errorText(result)).toMatch(/question/);
  });
});
