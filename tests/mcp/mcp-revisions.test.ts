import { validatedArtifact } from "../support/artifacts";
import { createKey, createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { callTool, connectMcpClient, connectV1Client, errorText, listen, type ListeningApp, type ToolCaller } from "../support/mcp-client";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let http: ListeningApp;
let ws: WorkspaceWithKey;
let artifactId: string;
let readKey: string;
let dataKey: string;

beforeAll(async () => {
  t = await createTestApp();
  http = await listen(t.app);
  ws = await createWorkspaceWithKey(t.services);
  artifactId = await validatedArtifact(t, ws.auth, {
    summary: "Warehouse pick rates fell after the March layout change",
    why: "Slower picking delays same-day orders",
  });
  await t.services.indexer.runOnce();
  readKey = (await createKey(t.services, ws.workspaceId, { scopes: ["artifacts:read"] })).key;
  dataKey = (await createKey(t.services, ws.workspaceId, { scopes: ["data:read"] })).key;
});

afterAll(async () => {
  await http.close();
  await t.close();
});

interface ConnectedClient extends ToolCaller {
  listTools(): Promise<{ tools: Array<{ name: string }> }>;
  close(): Promise<void>;
}

/** Each client as it connects in the wild, and the revision it must end up speaking. */
const CLIENTS: Array<[string, (key: string) => Promise<{ client: ConnectedClient; revision: () => string | undefined }>, string]> = [
  [
    "the 2.x client negotiating (server/discover)",
    async (key) => {
      const client = await connectMcpClient(http.baseUrl, key);
      return { client, revision: () => client.getNegotiatedProtocolVersion() };
    },
    "2026-07-28",
  ],
  [
    "the 2.x client opening with initialize",
    async (key) => {
      const client = await connectMcpClient(http.baseUrl, key, { negotiation: "legacy" });
      return { client, revision: () => client.getNegotiatedProtocolVersion() };
    },
    "2025-11-25",
  ],
  [
    "the 2.x client that speaks only 2025-06-18",
    async (key) => {
      const client = await connectMcpClient(http.baseUrl, key, { negotiation: "legacy", protocolVersions: ["2025-06-18"] });
      return { client, revision: () => client.getNegotiatedProtocolVersion() };
    },
    "2025-06-18",
  ],
  [
    "the 1.x client (@modelcontextprotocol/sdk 1.32.2)",
    async (key) => {
      const client = await connectV1Client(http.baseUrl, key);
      return { client, revision: () => (client.transport as { protocolVersion?: string } | undefined)?.protocolVersion };
    },
    "2025-11-25",
  ],
];

describe.each(CLIENTS)("%s", (_label, connect, revision) => {
  it(`speaks revision ${revision}`, async () => {
    const { client, revision: negotiated } = await connect(readKey);
    expect(negotiated()).toBe(revision);
    await client.close();
  });

  it("lists the key's tools and searches and fetches its workspace", async () => {
    const { client } = await connect(readKey);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["search", "fetch"]);
      const found = await callTool(client, "search", { query: "order picking got slower in the warehouse" });
      expect(found.structuredContent).toEqual({
        results: [{ id: artifactId, title: "Warehouse pick rates fell after the March layout change", url: `${http.baseUrl}/console/artifacts/${artifactId}` }],
        searchMode: "hybrid",
      });
      const fetched = await callTool(client, "fetch", { id: artifactId });
      expect(fetched.structuredContent).toMatchObject({ id: artifactId, text: expect.stringContaining("Slower picking delays same-day orders") });
    } finally {
      await client.close();
    }
  });

  it("answers the operation's sentences as tool errors", async () => {
    const { client } = await connect(readKey);
    try {
      const missing = await callTool(client, "fetch", { id: "art_missing" });
      expect(missing).toMatchObject({ isError: true, content: [{ type: "text", text: "Artifact art_missing not found" }] });
      const tooMany = await callTool(client, "search", { query: "orders", limit: 21 });
      expect(tooMany.isError).toBe(true);
      expect(errorText(tooMany)).toMatch(/limit/);
    } finally {
      await client.close();
    }
  });
});

describe("a tool outside the key's scopes", () => {
  it("is refused as an unknown tool, with JSON-RPC error -32602, in revision 2026-07-28", async () => {
    const client = await connectMcpClient(http.baseUrl, dataKey);
    await expect(callTool(client, "search", { query: "orders" })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("Tool search not found") });
    await client.close();
  });

  it("is refused the same way in revision 2025-11-25", async () => {
    const client = await connectV1Client(http.baseUrl, dataKey);
    await expect(callTool(client, "search", { query: "orders" })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("Tool search not found") });
    await client.close();
  });
});
