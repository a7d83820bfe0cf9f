import { execFile } from "node:child_process";
import { createServer } from "node:net";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioClientTransportV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { validatedArtifact } from "../support/artifacts";
import { killStartedProcesses, spawnTracked } from "../support/child-processes";
import { createKey, createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { TEST_RUN_VARIABLE } from "../support/leftover-processes";
import { callTool, listen, type ListeningApp, type ToolCaller } from "../support/mcp-client";
import { compileStdioCommand } from "../support/stdio-command";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let http: ListeningApp;
let ws: WorkspaceWithKey;
let artifactId: string;
let command: string;
let removeCommand: () => Promise<void>;

beforeAll(async () => {
  let compiled;
  [compiled, t] = await Promise.all([compileStdioCommand(), createTestApp()]);
  ({ file: command, remove: removeCommand } = compiled);
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
  await removeCommand();
});

afterEach(killStartedProcesses);

// The run's marker lets the global teardown stop a command a failed test left running.
const marker = () => ({ [TEST_RUN_VARIABLE]: process.env[TEST_RUN_VARIABLE] ?? "" });

/** The command as the README configures it: `node <file>`, two variables, nothing else. */
const server = (apiKey: string) => ({
  command: process.execPath,
  args: [command],
  env: { WSI_BASE_URL: http.baseUrl, WSI_API_KEY: apiKey, ...marker() },
  stderr: "pipe" as const,
});

const runStdioCommand = (env: Record<string, string>) =>
  promisify(execFile)(process.execPath, [command], { env: { PATH: process.env.PATH ?? "", ...marker(), ...env }, timeout: 60_000 });

async function searchAndFetch(client: ToolCaller & { listTools(): Promise<{ tools: Array<{ name: string }> }> }) {
  expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["search", "fetch"]);
  const found = await callTool(client, "search", { query: "sales in Asia increased, mostly thanks to Tokyo" });
  expect(found.structuredContent).toEqual({
    results: [{ id: artifactId, title: "APAC revenue grew 12% quarter over quarter, led by Japan", url: `${http.baseUrl}/console/artifacts/${artifactId}` }],
    searchMode: "hybrid",
  });
  const fetched = await callTool(client, "fetch", { id: artifactId });
  expect(fetched.structuredContent).toMatchObject({ id: artifactId, text: expect.stringContaining("Regional expansion is paying off") });
  const missing = await callTool(client, "fetch", { id: "art_missing" });
  expect(missing).toMatchObject({ isError: true, content: [{ type: "text", text: "Artifact art_missing not found" }] });
}

describe("the stdio command", () => {
  it("serves revision 2026-07-28 to the 2.x client, forwarding search and fetch, with nothing but MCP on stdout", async () => {
    const scoped = await createKey(t.services, ws.workspaceId, { scopes: ["artifacts:read"] });
    const client = new Client({ name: "desktop-client", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
    // The transport reports a stdout line that is JSON but not JSON-RPC; it skips lines that are
    // not JSON at all, which the raw test below counts.
    const stdoutErrors: Error[] = [];
    client.onerror = (error) => stdoutErrors.push(error);
    await client.connect(new StdioClientTransport(server(scoped.key)));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      await searchAndFetch(client);
      expect(stdoutErrors).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it("serves the 2025-11-25 handshake to the 1.x client", async () => {
    const scoped = await createKey(t.services, ws.workspaceId, { scopes: ["artifacts:read"] });
    const client = new ClientV1({ name: "older-desktop-client", version: "1.0.0" });
    const stdoutErrors: Error[] = [];
    client.onerror = (error) => stdoutErrors.push(error);
    await client.connect(new StdioClientTransportV1(server(scoped.key)));
    try {
      expect(client.getServerCapabilities()?.tools).toBeDefined();
      await searchAndFetch(client);
      expect(stdoutErrors).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it("writes exactly one JSON-RPC line to stdout for one request, and nothing before it", async () => {
    const child = spawnTracked(process.execPath, [command], { env: { PATH: process.env.PATH ?? "", WSI_BASE_URL: http.baseUrl, WSI_API_KEY: ws.key } });
    let stdout = "";
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    const answered = new Promise<void>((resolve) => child.stdout!.on("data", () => stdout.includes("\n") && resolve()));
    child.stdin!.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } })}\n`,
    );
    await answered;
    child.stdin!.end();
    await new Promise((resolve) => child.on("exit", resolve));
    const lines = stdout.split("\n").filter((line) => line !== "");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ jsonrpc: "2.0", id: 1, result: { protocolVersion: "2025-11-25" } });
  });

  it("says on stderr, and answers the client, when the service refuses the key later on", async () => {
    const doomed = await createKey(t.services, ws.workspaceId, { scopes: ["artifacts:read"] });
    const transport = new StdioClientTransport(server(doomed.key));
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const client = new Client({ name: "desktop-client", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(transport);
    try {
      // Answered once: the command has connected to the service with the key.
      expect((await client.listTools()).tools).toHaveLength(2);
      await t.services.apiKeys.revoke(ws.workspaceId, doomed.keyId);
      const refused = `The service at ${http.baseUrl}/mcp/key refused WSI_API_KEY (HTTP 401`;
      await expect(callTool(client, "search", { query: "revenue" })).rejects.toThrow(refused);
      expect(stderr).toContain(`${refused}: This API key has been revoked): give a current workspace API key`);
    } finally {
      await client.close();
    }
  });

  it("exits 1 saying the service refused WSI_API_KEY", async () => {
    await expect(runStdioCommand({ WSI_BASE_URL: http.baseUrl, WSI_API_KEY: "wsi_wrong" })).rejects.toMatchObject({
      code: 1,
      stdout: "",
      stderr: expect.stringContaining(`The service at ${http.baseUrl}/mcp/key refused WSI_API_KEY (HTTP 401`),
    });
  });

  it("exits 1 naming WSI_BASE_URL's value when nothing answers there", async () => {
    const closedPort = await unusedPort();
    await expect(runStdioCommand({ WSI_BASE_URL: `http://127.0.0.1:${closedPort}`, WSI_API_KEY: "wsi_x" })).rejects.toMatchObject({
      code: 1,
      stdout: "",
      stderr: expect.stringMatching(new RegExp(`Could not reach the service at WSI_BASE_URL=http://127\\.0\\.0\\.1:${closedPort} \\(.*ECONNREFUSED`)),
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

/** A loopback port nothing listens on: taken from the system, then released. */
function unusedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
