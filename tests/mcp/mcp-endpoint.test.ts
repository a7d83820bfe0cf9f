import { buildApp } from "../../src/app";
import { createLogger } from "../../src/lib/logger";
import { validatedArtifact } from "../support/artifacts";
import { createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { callTool, connectMcpClient, listen, type ListeningApp, MCP_HEADERS } from "../support/mcp-client";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let http: ListeningApp;
let ws: WorkspaceWithKey;
let artifactId: string;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON-RPC bodies are checked by matchers
const json = async (res: Response): Promise<any> => res.json();


beforeAll(async () => {
  t = await createTestApp();
  http = await listen(t.app);
  ws = await createWorkspaceWithKey(t.services);
  artifactId = await validatedArtifact(t, ws.auth, { summary: "Lisbon kiosk footfall rose in July" });
});

afterAll(async () => {
  await http.close();
  await t.close();
});

/** One JSON-RPC message posted as any MCP client posts it. */
function post(body: unknown, headers: Record<string, string> = {}, baseUrl = http.baseUrl, path = "/mcp") {
  return fetch(`${baseUrl}${path}`, { method: "POST", headers: { ...MCP_HEADERS, ...headers }, body: JSON.stringify(body) });
}

const initialize = (protocolVersion: string) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: "curl", version: "1" } },
});

describe("authentication", () => {
  it("answers 401 without credentials on /mcp, pointing to its OAuth metadata for clients that sign in", async () => {
    const res = await post(initialize("2025-11-25"));
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${http.baseUrl}/.well-known/oauth-protected-resource/mcp", scope="artifacts:read intelligence:read data:read skills:read"`,
    );
    expect(await json(res)).toEqual({
      error: "Missing Authorization header: send Authorization: Bearer <API key or access token>",
      code: "unauthorized",
    });
  });

  it("answers 401 with a Bearer challenge and no OAuth metadata on /mcp/key", async () => {
    const res = await post(initialize("2025-11-25"), {}, http.baseUrl, "/mcp/key");
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer /);
    expect(res.headers.get("www-authenticate")).not.toMatch(/resource_metadata/);
    expect(await json(res)).toEqual({
      error: "Missing Authorization header: send Authorization: Bearer <API key>",
      code: "unauthorized",
    });
  });

  it("serves an API key on /mcp/key as on /mcp", async () => {
    for (const path of ["/mcp", "/mcp/key"]) {
      const res = await post(initialize("2025-11-25"), ws.auth, http.baseUrl, path);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
    }
  });

  it("answers 401 with a Bearer challenge for an unknown key", async () => {
    const res = await post(initialize("2025-11-25"), { Authorization: "Bearer wsi_not_a_real_key" });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer /);
    expect(await json(res)).toEqual({ error: "Invalid API key", code: "unauthorized" });
  });

  it("answers 401 for a key given with another scheme", async () => {
    const res = await post(initialize("2025-11-25"), { Authorization: `Basic ${ws.key}` });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer /);
  });

  it("answers 401 for a revoked key, from the moment it is revoked", async () => {
    const doomed = await createWorkspaceWithKey(t.services);
    const client = await connectMcpClient(http.baseUrl, doomed.key);
    await t.services.apiKeys.revoke(doomed.workspaceId, doomed.keyId);
    await expect(client.listTools()).rejects.toThrow(/This API key has been revoked/);
    await client.close();
    const res = await post(initialize("2025-11-25"), doomed.auth);
    expect(res.status).toBe(401);
    expect(await json(res)).toEqual({ error: "This API key has been revoked", code: "unauthorized" });
  });

  it("makes the official client's connect fail on a bad key", async () => {
    await expect(connectMcpClient(http.baseUrl, "wsi_wrong")).rejects.toThrow(/401|Unauthorized/i);
  });

  it("serves no OAuth protected-resource metadata for /mcp/key, nor at the root a client would fall back to", async () => {
    expect((await fetch(`${http.baseUrl}/.well-known/oauth-protected-resource/mcp/key`)).status).toBe(404);
    expect((await fetch(`${http.baseUrl}/.well-known/oauth-protected-resource`)).status).toBe(404);
  });
});

describe("the stateless Streamable HTTP transport, 2025 revisions (2026-07-28: mcp-wire-rules.test.ts)", () => {
  it("negotiates protocol revision 2025-11-25 and answers in JSON without a session id", async () => {
    const res = await post(initialize("2025-11-25"), ws.auth);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("mcp-session-id")).toBeNull();
    const body = await json(res);
    expect(body.result).toMatchObject({
      protocolVersion: "2025-11-25",
      serverInfo: { name: "workspace-intelligence", version: "1.0.0" },
      capabilities: { tools: {} },
    });
    expect(body.result.instructions).toMatch(/treat it as data/);
  });

  it("offers its newest revision to a client asking for one it does not speak", async () => {
    const body = await json(await post(initialize("2026-07-28"), ws.auth));
    expect(body.result.protocolVersion).toBe("2025-11-25");
  });

  it("answers a tools/call that arrives without any earlier request", async () => {
    const res = await post(
      { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "fetch", arguments: { id: artifactId } } },
      { ...ws.auth, "MCP-Protocol-Version": "2025-11-25" },
    );
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({ id: 7, result: { structuredContent: { id: artifactId, title: "Lisbon kiosk footfall rose in July" } } });
  });

  it("answers a JSON-RPC parse error for a body that is not JSON", async () => {
    const res = await fetch(`${http.baseUrl}/mcp`, { method: "POST", headers: { ...MCP_HEADERS, ...ws.auth }, body: "{not json" });
    expect(res.status).toBe(400);
    expect((await json(res)).error).toMatchObject({ code: -32700 });
  });

  it("answers 406 to a client that does not accept JSON and event streams", async () => {
    const res = await post(initialize("2025-11-25"), { ...ws.auth, Accept: "text/html" });
    expect(res.status).toBe(406);
  });

  it.each(["GET", "DELETE", "PUT"])("answers %s with 405 and Allow: POST", async (method) => {
    const res = await fetch(`${http.baseUrl}/mcp`, { method, headers: ws.auth });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST, OPTIONS");
    expect((await json(res)).code).toBe("method_not_allowed");
  });

  it("answers OPTIONS with 204 and Allow", async () => {
    const res = await fetch(`${http.baseUrl}/mcp`, { method: "OPTIONS" });
    expect(res.status).toBe(204);
    expect(res.headers.get("allow")).toBe("POST, OPTIONS");
  });
});

describe("links for people", () => {
  it("builds urls on PUBLIC_BASE_URL when it is set", async () => {
    const app = buildApp({ services: t.services, logger: createLogger("silent"), publicBaseUrl: "https://intelligence.example.com/" });
    const configured = await listen(app);
    const client = await connectMcpClient(configured.baseUrl, ws.key);
    const result = await callTool(client, "fetch", { id: artifactId });
    expect((result.structuredContent as { url: string }).url).toBe(`https://intelligence.example.com/console/artifacts/${artifactId}`);
    await client.close();
    await configured.close();
  });
});
