import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Server } from "@modelcontextprotocol/server";
import type { McpStdioConfig } from "../config";
import { MCP_PATH, MCP_SERVER_NAME } from "./mcp-names";

/**
 * An MCP client of the running service's /mcp, acting with the configured key. It asks for the
 * current revision first (`server/discover`) and falls back to `initialize` against an older service.
 */
export async function connectToService(config: McpStdioConfig): Promise<Client> {
  const client = new Client({ name: "workspace-intelligence-stdio", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  const transport = new StreamableHTTPClientTransport(new URL(MCP_PATH, config.baseUrl), {
    requestInit: { headers: { Authorization: `Bearer ${config.apiKey}` } },
  });
  await client.connect(transport);
  return client;
}

/**
 * A server for a local process's stdio that forwards tools/list and tools/call to the service.
 * The tools, their scopes and their answers stay the service's: nothing is decided here.
 */
export function createStdioBridge(service: Client): Server {
  const remote = service.getServerVersion();
  const server = new Server(
    { name: remote?.name ?? MCP_SERVER_NAME, version: remote?.version ?? "1.0.0" },
    { capabilities: { tools: {} }, instructions: service.getInstructions() },
  );
  server.setRequestHandler("tools/list", (request) => service.listTools(request.params));
  server.setRequestHandler("tools/call", (request) => service.callTool(request.params));
  return server;
}
