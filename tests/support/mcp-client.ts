import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Express } from "express";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

export interface ListeningApp {
  baseUrl: string;
  close(): Promise<void>;
}

/** The app on a loopback port, as MCP clients reach it over real HTTP. */
export async function listen(app: Express): Promise<ListeningApp> {
  const server: Server = await new Promise((resolve) => {
    const started = app.listen(0, "127.0.0.1", () => resolve(started));
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The official MCP client over Streamable HTTP, sending the key as a Bearer header. */
export async function connectMcpClient(baseUrl: string, key: string): Promise<Client> {
  const client = new Client({ name: "wsi-tests", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", baseUrl), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

/** Calls a tool and returns its result, typed as a plain (non-task) tool result. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The one text item of a result, parsed as JSON. */
export function textJson(result: CallToolResult): unknown {
  if (result.content.length !== 1 || result.content[0]!.type !== "text") throw new Error("expected one text item");
  return JSON.parse((result.content[0] as { text: string }).text);
}

export const errorText = (result: CallToolResult): string =>
  result.content.map((item) => (item.type === "text" ? item.text : "")).join("");
