#!/usr/bin/env node
import { SdkError, SdkErrorCode, SdkHttpError } from "@modelcontextprotocol/client";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { ConfigError, loadMcpStdioConfig, type McpStdioConfig } from "../config";
import { MCP_PATH } from "./mcp-names";
import { connectToService, createStdioBridge } from "./stdio-bridge";

/**
 * `node dist/mcp/stdio.js` (the `workspace-intelligence-mcp` bin): MCP over stdin/stdout for
 * clients that only start local processes, forwarding to a running service. Stdout is the
 * protocol, so this is started with node itself (npm run prints its banner on stdout) and every
 * message for people goes to stderr.
 */
async function main(): Promise<void> {
  const config = loadMcpStdioConfig();
  const service = await connectToService(config).catch((error: unknown) => {
    throw new Error(whyNotConnected(config, error));
  });
  // One bridge per stdio connection; serveStdio answers both the 2026-07-28 opening
  // (server/discover) and the 2025 one (initialize) from it.
  const handle = serveStdio(() => createStdioBridge(service), {
    onerror: (error) => console.error(`MCP stdio: ${error.message}`),
  });
  const stop = async () => {
    await handle.close();
    await service.close();
    process.exit(0);
  };
  process.stdin.on("end", () => void stop());
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
}

/** Says which of the two usual mistakes happened: the service is not there, or it refused the key. */
function whyNotConnected(config: McpStdioConfig, error: unknown): string {
  const endpoint = new URL(MCP_PATH, config.baseUrl).toString();
  const status = error instanceof SdkHttpError ? error.status : undefined;
  if (status === 401 || (error instanceof SdkError && error.code === SdkErrorCode.ClientHttpAuthentication)) {
    return `The service at ${endpoint} refused WSI_API_KEY (401${detail(error)}): give a current workspace API key (wsi_…)`;
  }
  if (status === 403) return `The service at ${endpoint} refused the request (403${detail(error)})`;
  if (status !== undefined) return `The service at ${endpoint} answered HTTP ${status}${detail(error)}: is WSI_BASE_URL (${config.baseUrl}) this service?`;
  return `Could not reach the service at WSI_BASE_URL=${config.baseUrl} (${causeOf(error)}): is it running, and is that its address?`;
}

const detail = (error: unknown) => {
  const message = error instanceof Error ? error.message : "";
  return message ? `: ${message}` : "";
};

// fetch reports a refused connection as "fetch failed", the SDK wraps that again: the innermost
// cause ("connect ECONNREFUSED 127.0.0.1:3000") is the one that says what happened.
function causeOf(error: unknown): string {
  let current: unknown = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  if (!(current instanceof Error)) return String(current);
  const code = (current as { code?: unknown }).code;
  return typeof code === "string" && !current.message.includes(code) ? `${current.message} (${code})` : current.message;
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error instanceof Error ? error.message : String(error));
  process.exit(1);
});
