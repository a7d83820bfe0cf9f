import { Client, ProtocolError, SdkError, SdkErrorCode, SdkHttpError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Server } from "@modelcontextprotocol/server";
import type { McpStdioConfig } from "../config";
import { MCP_KEY_PATH, MCP_SERVER_NAME } from "./mcp-names";

/**
 * An MCP client of the running service's /mcp, acting with the configured key. It asks for the
 * current revision first (`server/discover`) and falls back to `initialize` against an older service.
 */
export async function connectToService(config: McpStdioConfig): Promise<Client> {
  const client = new Client({ name: "workspace-intelligence-stdio", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  const transport = new StreamableHTTPClientTransport(new URL(MCP_KEY_PATH, config.baseUrl), {
    requestInit: { headers: { Authorization: `Bearer ${config.apiKey}` } },
  });
  await client.connect(transport);
  return client;
}

/**
 * A server for a local process's stdio that forwards tools/list and tools/call to the service.
 * The tools, their scopes and their answers stay the service's: nothing is decided here. When the
 * service cannot be reached or refuses the key later on (stopped, key revoked), the client is
 * answered, and `report` told, the same sentence as at start.
 */
export function createStdioBridge(service: Client, config: McpStdioConfig, report: (sentence: string) => void): Server {
  const remote = service.getServerVersion();
  const server = new Server(
    { name: remote?.name ?? MCP_SERVER_NAME, version: remote?.version ?? "1.0.0" },
    { capabilities: { tools: {} }, instructions: service.getInstructions() },
  );
  const forward = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      // The service's own JSON-RPC answers (an unknown tool, invalid params) are the client's to read.
      if (error instanceof ProtocolError) throw error;
      const sentence = describeServiceFailure(config, error);
      report(sentence);
      throw new Error(sentence);
    }
  };
  server.setRequestHandler("tools/list", (request) => forward(() => service.listTools(request.params)));
  server.setRequestHandler("tools/call", (request) => forward(() => service.callTool(request.params)));
  return server;
}

/** Says which of the two usual mistakes happened: the service is not there, or it refused the key. */
export function describeServiceFailure(config: McpStdioConfig, error: unknown): string {
  const endpoint = new URL(MCP_KEY_PATH, config.baseUrl).toString();
  const status = error instanceof SdkHttpError ? error.status : undefined;
  if (status === 401 || (error instanceof SdkError && error.code === SdkErrorCode.ClientHttpAuthentication)) {
    return `The service at ${endpoint} refused WSI_API_KEY (HTTP 401${serviceSentence(error)}): give a current workspace API key (wsi_…)`;
  }
  if (status !== undefined) {
    return `The service at ${endpoint} answered HTTP ${status}${serviceSentence(error)}: is WSI_BASE_URL (${config.baseUrl}) the address of this service?`;
  }
  return `Could not reach the service at WSI_BASE_URL=${config.baseUrl} (${causeOf(error)}): is it running, and is that its address?`;
}

// The SDK's message quotes the answer's body when it has one; the service's {"error": "…"}
// sentence in it ("This API key has been revoked") is the useful part.
function serviceSentence(error: unknown): string {
  const quoted = error instanceof Error ? /"error"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(error.message)?.[1] : undefined;
  if (quoted === undefined) return "";
  try {
    return `: ${JSON.parse(quoted) as string}`;
  } catch {
    return "";
  }
}

// fetch reports a refused connection as "fetch failed", the SDK wraps that again: the innermost
// cause ("connect ECONNREFUSED 127.0.0.1:3000") is the one that says what happened.
function causeOf(error: unknown): string {
  let current: unknown = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  if (!(current instanceof Error)) return String(current);
  const code = (current as { code?: unknown }).code;
  return typeof code === "string" && !current.message.includes(code) ? `${current.message} (${code})` : current.message;
}
