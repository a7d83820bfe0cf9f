import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { validatedArtifact } from "../support/artifacts";
import { createKey, createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { callTool, listen, type ListeningApp } from "../support/mcp-client";
import { createTestApp, type TestApp } from "../support/test-app";

const ROOT = path.resolve(__dirname, "../..");
const TSX = path.join(ROOT, "node_modules", ".bin", "tsx");
const STDIO_COMMAND = path.join(ROOT, "src", "mcp", "stdio.ts");

let t: TestApp;
let http: ListeningApp;
let ws: WorkspaceWithKey;
let artifactId: string;

beforeAll(async () => {
  t = await createTestApp();
  http = await listen(t.app);
  ws = await createWorkspaceWithKey(t.services);
  artifactId = await validatedArtifact(t, ws.auth, {
    summary: "APAC revenue grew 12% quarter over quarter, led by Japan",
    why: "Regional expansion is paying off",
  });
  await t.services.indexer.runOnce();
});

afterAll(async () => {
  await http.close();
  await t.close();
});

/** The stdio command as a desktop client starts it: a child process with two variables set. */
async function startStdioClient(apiKey: string): Promise<Client> {
  const client = new Client({ name: "desktop-client", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({ command: TSX, args: [STDIO_COMMAND], cwd: ROOT, env: { WSI_BASE_URL: http.baseUrl, WSI_API_KEY: apiKey }, stderr: "pipe" }),
  );
  return client;
}

const runStdioCommand = (env: Record<string, string>) =>
  promisify(execFile)(TSX, [STDIO_COMMAND], { cwd: ROOT, env: { PATH: process.env.PATH ?? "", ...env }, timeout: 20_000 });

describe("the stdio command", () => {
  it("lists the key's tools and forwards search and fetch to the service", async () => {
    const scoped = await createKey(t.services, ws.workspaceId, { scopes: ["artifacts:read"] });
    const client = await startStdioClient(scoped.key);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["search", "fetch"]);
      const found = await callTool(client, "search", { query: "sales in Asia increased, mostly thanks to Tokyo" });
      expect(found.structuredContent).toEqual({
        results: [{ id: artifactId, title: "APAC revenue grew 12% quarter over quarter, led by Japan", url: `${http.baseUrl}/console/artifacts/${artifactId}` }],
      });
      const fetched = await callTool(client, "fetch", { id: artifactId });
      expect(fetched.structuredContent).toMatchObject({ id: artifactId, text: expect.stringContaining("Regional expansion is paying off") });
      const missing = await callTool(client, "fetch", { id: "art_missing" });
      expect(missing).toMatchObject({ isError: true, content: [{ type: "text", text: "Artifact art_missing not found" }] });
    } finally {
      await client.close();
    }
  });

  it("exits 1 naming the endpoint when the service refuses the key", async () => {
    await expect(runStdioCommand({ WSI_BASE_URL: http.baseUrl, WSI_API_KEY: "wsi_wrong" })).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`Could not reach the MCP endpoint at ${http.baseUrl}/mcp with WSI_API_KEY`),
    });
  });

  it("exits 1 naming WSI_BASE_URL when it is not an http(s) address", async () => {
    await expect(runStdioCommand({ WSI_BASE_URL: "ftp://example.com", WSI_API_KEY: "wsi_x" })).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("WSI_BASE_URL: must be an http(s) URL"),
    });
  });

  it("exits 1 naming WSI_API_KEY when it is not set", async () => {
    await expect(runStdioCommand({ WSI_BASE_URL: http.baseUrl })).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("WSI_API_KEY: is required"),
    });
  });
});
