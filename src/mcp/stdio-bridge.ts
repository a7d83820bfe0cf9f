import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { McpStdioConfig } from "../config";
import { MCP_SERVER_NAME } from "./create-mcp-server";
import { MCP_PATH } from "./mcp-endpoint";

/** An MCP client of the running service's /mcp, acting with the configured key. */
export async function connectToService(config: McpStdioConfig): Promise<Client> {
  const client = new Client({ name: "workspace-intelligence-stdio", version: "1.0.0" });
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
  server.setRequestHandler(ListToolsRequestSchema, (request) => service.listTools(request.params));
  server.setRequestHandler(CallToolRequestSchema, (request) => service.callTool(request.params));
  return server;
}
