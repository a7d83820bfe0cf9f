import request from "supertest";
import { createWorkspaceIntelligenceClient } from "../../clients/typescript";
import { adminAuth, createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { callTool, connectMcpClient, listen, type ListeningApp } from "../support/mcp-client";
import { createTestApp, type TestApp } from "../support/test-app";

// A data source's name is the label people gave the connection in the product. One with a `/`
// is imported with the rest of the document, and every adapter reaches it: REST by the
// percent-encoded name (`%2F`), the typed client by the name as it is, MCP by the tool argument.

const LABEL = "Marketing / Ad Spend";
const PATTERN = { question: "Ad spend by channel per month", sql: "SELECT channel, month, sum(spend) FROM ad_spend GROUP BY 1, 2", successCount: 7 };

let t: TestApp;
let listening: ListeningApp;
let ws: WorkspaceWithKey;

beforeAll(async () => {
  t = await createTestApp();
  listening = await listen(t.app);
  ws = await createWorkspaceWithKey(t.services);
  await request(t.app)
    .post(`/admin/v1/workspaces/${ws.workspaceId}/import`)
    .set(adminAuth(t.adminToken))
    .send({
      dataSources: [
        { name: "warehouse", connectorType: "postgres", status: "connected" },
        { name: LABEL, connectorType: "databricks", status: "connected", queryPatterns: [PATTERN] },
        { name: "prod: eu-west-1", connectorType: "mysql", status: "error" },
      ],
    })
    .expect(200);
});
afterAll(async () => {
  await listening.close();
  await t.close();
});

describe("a data source named with a /", () => {
  it("is imported with the rest of the document and listed under its name", async () => {
    const res = await request(t.app).get("/api/v1/data-sources").set(ws.auth).expect(200);
    expect(res.body.items.map((item: { name: string }) => item.name).sort()).toEqual([LABEL, "prod: eu-west-1", "warehouse"]);
  });

  it("answers its query intelligence on REST at the percent-encoded name", async () => {
    const url = `${listening.baseUrl}/api/v1/data-sources/Marketing%20%2F%20Ad%20Spend/query-intelligence?question=${encodeURIComponent("spend per channel")}`;
    const res = await fetch(url, { headers: ws.auth });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { patterns: unknown[] }).patterns).toEqual([expect.objectContaining({ question: PATTERN.question, sql: PATTERN.sql })]);
  });

  it("is not found at the name with a bare /, which is another path", async () => {
    const res = await fetch(`${listening.baseUrl}/api/v1/data-sources/Marketing / Ad Spend/query-intelligence?question=x`, { headers: ws.auth });
    expect(res.status).toBe(404);
  });

  it("answers through the typed client, which encodes the name itself", async () => {
    const api = createWorkspaceIntelligenceClient({ baseUrl: listening.baseUrl, apiKey: ws.key });
    const { data, response } = await api.GET("/api/v1/data-sources/{name}/query-intelligence", {
      params: { path: { name: LABEL }, query: { question: "spend per channel" } },
    });
    expect(response.status).toBe(200);
    expect(data!.patterns.map((pattern) => pattern.question)).toEqual([PATTERN.question]);
  });

  it("answers through MCP, named as list_data_sources shows it", async () => {
    const client = await connectMcpClient(listening.baseUrl, ws.key);
    try {
      const listed = await callTool(client, "list_data_sources");
      expect((listed.structuredContent as { items: Array<{ name: string }> }).items.map((item) => item.name)).toContain(LABEL);
      const result = await callTool(client, "get_query_intelligence", { name: LABEL, question: "spend per channel" });
      expect(result.isError).toBeFalsy();
      expect((result.structuredContent as { patterns: Array<{ question: string }> }).patterns.map((pattern) => pattern.question)).toEqual([PATTERN.question]);
    } finally {
      await client.close();
    }
  });

  it("is kept by an export and an import into another workspace", async () => {
    const exported = await request(t.app).get(`/admin/v1/workspaces/${ws.workspaceId}/export`).set(adminAuth(t.adminToken)).buffer(true).expect(200);
    const document = JSON.parse(exported.text);
    const copy = await createWorkspaceWithKey(t.services);
    await request(t.app).post(`/admin/v1/workspaces/${copy.workspaceId}/import`).set(adminAuth(t.adminToken)).send(document).expect(200);
    const res = await request(t.app).get(`/api/v1/data-sources/${encodeURIComponent(LABEL)}/query-intelligence`).query({ question: "spend" }).set(copy.auth).expect(200);
    expect(res.body.patterns).toHaveLength(1);
  });

  it("is deleted by the admin API at its percent-encoded name, and the others stay", async () => {
    const other = await createWorkspaceWithKey(t.services);
    await request(t.app)
      .post(`/admin/v1/workspaces/${other.workspaceId}/import`)
      .set(adminAuth(t.adminToken))
      .send({ dataSources: [{ name: LABEL, connectorType: "postgres", status: "connected" }, { name: "Marketing", connectorType: "postgres", status: "connected" }] })
      .expect(200);
    await request(t.app).delete(`/admin/v1/workspaces/${other.workspaceId}/data-sources/${encodeURIComponent(LABEL)}`).set(adminAuth(t.adminToken)).expect(204);
    const res = await request(t.app).get("/api/v1/data-sources").set(other.auth).expect(200);
    expect(res.body.items.map((item: { name: string }) => item.name)).toEqual(["Marketing"]);
  });
});
