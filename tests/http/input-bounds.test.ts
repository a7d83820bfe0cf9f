import type { Client } from "@modelcontextprotocol/client";
import request from "supertest";
import { INPUT_LIMITS } from "../../src/contracts/text-limits";
import { consoleSession, createReviewer } from "../support/console";
import { adminAuth, createWorkspaceWithKey, importContent, type WorkspaceWithKey } from "../support/factories";
import { callTool, connectMcpClient, errorText, listen, type ListeningApp } from "../support/mcp-client";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let http: ListeningApp;
let ws: WorkspaceWithKey;
let mcp: Client;

beforeAll(async () => {
  t = await createTestApp();
  http = await listen(t.app);
  ws = await createWorkspaceWithKey(t.services);
  await importContent(t.services, ws.workspaceId, {
    memories: [{ type: "definition", statement: "Enterprise churn counts accounts whose subscription ended; revenue churn weighs them by revenue." }],
  });
  await t.services.indexer.runOnce();
  mcp = await connectMcpClient(http.baseUrl, ws.key);
});

afterAll(async () => {
  await mcp?.close();
  await http?.close();
  await t?.close();
});

/** The query of the security review: about 950 KB, far past what REST's URL could carry. */
const HUGE_QUERY = "enterprise churn revenue ".repeat(38_000);
/** The longest query the limits allow, of real words, so that the recall has something to find. */
const LONGEST_QUERY = "enterprise churn revenue ".repeat(60).slice(0, INPUT_LIMITS.searchText);
const QUERY_SENTENCE = `query: must be at most ${INPUT_LIMITS.searchText} characters`;

const get = (path: string, query: Record<string, string> = {}) => request(t.app).get(path).query(query).set(ws.auth);

describe("a recall query over the limit", () => {
  it("is refused by MCP (950 KB) and REST with the same sentence, naming the argument and its limit", async () => {
    const tool = await callTool(mcp, "recall_memories", { query: HUGE_QUERY });
    expect(tool.isError).toBe(true);
    expect(errorText(tool)).toMatch(new RegExp(`\\b${QUERY_SENTENCE}$`));
    for (const length of [INPUT_LIMITS.searchText + 1, 10_000]) {
      const res = await get("/api/v1/memories", { query: "x".repeat(length) });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: `query parameter ${QUERY_SENTENCE}`, code: "bad_request" });
    }
  });

  it("is answered at exactly the limit, on both", async () => {
    expect(LONGEST_QUERY).toHaveLength(INPUT_LIMITS.searchText);
    const res = await get("/api/v1/memories", { query: LONGEST_QUERY }).expect(200);
    expect(res.body.hits.map((hit: { statement: string }) => hit.statement)).toContain(
      "Enterprise churn counts accounts whose subscription ended; revenue churn weighs them by revenue.",
    );
    const tool = await callTool(mcp, "recall_memories", { query: LONGEST_QUERY });
    expect(tool.isError).toBeFalsy();
    // REST says how it searched in a header, MCP in the result.
    expect(tool.structuredContent).toEqual({ ...res.body, searchMode: res.headers["x-search-mode"] });
  });
});

describe("every bounded parameter of the API", () => {
  const over = (limit: number) => "x".repeat(limit + 1);
  it.each([
    ["search's query", "/api/v1/artifacts", { query: over(INPUT_LIMITS.searchText) }, `query parameter query: must be at most ${INPUT_LIMITS.searchText} characters`],
    ["query intelligence's question", "/api/v1/data-sources/warehouse/query-intelligence", { question: over(INPUT_LIMITS.searchText) }, `query parameter question: must be at most ${INPUT_LIMITS.searchText} characters`],
    ["a data source's name", `/api/v1/data-sources/${over(INPUT_LIMITS.lookupName)}/query-intelligence`, { question: "ARR" }, `path parameter name: must be at most ${INPUT_LIMITS.lookupName} characters`],
    ["a skill's name", `/api/v1/skills/${over(INPUT_LIMITS.lookupName)}/files`, { path: "SKILL.md" }, `path parameter name: must be at most ${INPUT_LIMITS.lookupName} characters`],
    ["a skill file's path", "/api/v1/skills/churn-analysis/files", { path: over(INPUT_LIMITS.filePath) }, `query parameter path: must be at most ${INPUT_LIMITS.filePath} characters`],
    ["feedback's cursor", "/api/v1/feedback", { cursor: over(INPUT_LIMITS.cursor) }, `query parameter cursor: must be at most ${INPUT_LIMITS.cursor} characters`],
  ])("refuses %s one character over its limit with 400 naming it", async (_what, path, query, error) => {
    const res = await get(path, query);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error, code: "bad_request" });
  });

  it("takes a name at its limit and answers for the name (404: no such data source)", async () => {
    const res = await get(`/api/v1/data-sources/${"n".repeat(INPUT_LIMITS.lookupName)}/query-intelligence`, { question: "ARR" });
    expect(res.status).toBe(404);
  });

  it.each([
    ["name", { name: over(INPUT_LIMITS.name) }, `name: must be at most ${INPUT_LIMITS.name} characters`],
    ["organization", { name: "w", organization: over(INPUT_LIMITS.name) }, `organization: must be at most ${INPUT_LIMITS.name} characters`],
    ["context", { name: "w", context: over(INPUT_LIMITS.workspaceContext) }, `context: must be at most ${INPUT_LIMITS.workspaceContext} characters`],
  ])("refuses a new workspace's %s over its limit with 400 naming it", async (_field, body, error) => {
    const res = await request(t.app).post("/admin/v1/workspaces").set(adminAuth(t.adminToken)).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error, code: "bad_request" });
  });

  it("refuses a long key name in the console's key form with the admin API's sentence", async () => {
    const reviewer = await createReviewer(t, ws.workspaceId);
    const { agent, csrf } = await consoleSession(t, reviewer.email, reviewer.password);
    const name = over(INPUT_LIMITS.name);
    const api = await request(t.app).post(`/admin/v1/workspaces/${ws.workspaceId}/keys`).set(adminAuth(t.adminToken)).send({ name }).expect(400);
    expect(api.body.error).toBe(`name: must be at most ${INPUT_LIMITS.name} characters`);
    const form = await agent.post("/console/keys").type("form").send({ _csrf: csrf, workspace: ws.workspaceId, name }).expect(400);
    expect(form.text).toContain(api.body.error);
  });
});

describe("the limits as clients read them", () => {
  it("are the maxLength of the tools' arguments in tools/list", async () => {
    const { tools } = await mcp.listTools();
    const maxLengths = Object.fromEntries(
      tools.map((tool) => [
        tool.name,
        Object.fromEntries(Object.entries(tool.inputSchema.properties ?? {}).flatMap(([name, schema]) => ((schema as { maxLength?: number }).maxLength ? [[name, (schema as { maxLength: number }).maxLength]] : []))),
      ]),
    );
    expect(maxLengths).toMatchObject({
      search: { query: INPUT_LIMITS.searchText },
      recall_memories: { query: INPUT_LIMITS.searchText },
      get_query_intelligence: { name: INPUT_LIMITS.lookupName, question: INPUT_LIMITS.searchText },
      get_skill_file: { name: INPUT_LIMITS.lookupName, path: INPUT_LIMITS.filePath },
    });
  });

  it("are the maxLength of the parameters in the OpenAPI document", async () => {
    const document = (await request(t.app).get("/api/v1/openapi.json").expect(200)).body;
    const maxLength = (path: string, parameter: string) =>
      (document.paths[path].get.parameters as Array<{ name: string; schema: { maxLength?: number } }>).find((p) => p.name === parameter)?.schema.maxLength;
    expect({
      search: maxLength("/api/v1/artifacts", "query"),
      recall: maxLength("/api/v1/memories", "query"),
      question: maxLength("/api/v1/data-sources/{name}/query-intelligence", "question"),
      dataSource: maxLength("/api/v1/data-sources/{name}/query-intelligence", "name"),
      skill: maxLength("/api/v1/skills/{name}/files", "name"),
      path: maxLength("/api/v1/skills/{name}/files", "path"),
      cursor: maxLength("/api/v1/feedback", "cursor"),
    }).toEqual({
      search: INPUT_LIMITS.searchText,
      recall: INPUT_LIMITS.searchText,
      question: INPUT_LIMITS.searchText,
      dataSource: INPUT_LIMITS.lookupName,
      skill: INPUT_LIMITS.lookupName,
      path: INPUT_LIMITS.filePath,
      cursor: INPUT_LIMITS.cursor,
    });
  });
});
