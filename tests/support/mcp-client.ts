import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Express } from "express";
import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as StreamableHTTPClientTransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

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

/** How a 2.x client opens: `auto` asks for revision 2026-07-28 (`server/discover`), `legacy` sends `initialize`. */
export type Negotiation = "auto" | "legacy";

/**
 * The SDK's 2.x client over Streamable HTTP, sending the key as a Bearer header. By default it
 * negotiates as current clients do, landing on revision 2026-07-28.
 */
export async function connectMcpClient(
  baseUrl: string,
  key: string,
  { negotiation = "auto", protocolVersions }: { negotiation?: Negotiation; protocolVersions?: string[] } = {},
): Promise<Client> {
  const client = new Client(
    { name: "wsi-tests", version: "1.0.0" },
    { versionNegotiation: { mode: negotiation }, ...(protocolVersions ? { supportedProtocolVersions: protocolVersions } : {}) },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", baseUrl), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
  return client;
}

/** The 1.x client (`@modelcontextprotocol/sdk` 1.32.2), as clients built before the 2026 revision connect. */
export async function connectV1Client(baseUrl: string, key: string): Promise<ClientV1> {
  const client = new ClientV1({ name: "wsi-tests-v1", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransportV1(new URL("/mcp", baseUrl), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
  return client;
}

/** Either SDK's client, for what the tests ask of both. */
export interface ToolCaller {
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
}

/** Calls a tool and returns its result, typed as a plain (non-task) tool result. */
export async function callTool(client: ToolCaller, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The one text item of a result, parsed as JSON. */
export function textJson(result: CallToolResult): unknown {
  if (result.content.length !== 1 || result.content[0]!.type !== "text") throw new Error("expected one text item");
  return JSON.parse((result.content[0] as { text: string }).text);
}

export const errorText = (result: CallToolResult): string =>
  result.content.map((item) => (item.type === "text" ? item.text : "")).join("");

/** The headers every MCP client sends on a POST: raw-HTTP tests send the same. */
export const MCP_HEADERS = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
