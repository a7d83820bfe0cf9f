#!/usr/bin/env node
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { ConfigError, loadMcpStdioConfig } from "../config";
import { connectToService, createStdioBridge, describeServiceFailure } from "./stdio-bridge";

/**
 * `node dist/mcp/stdio.js` (the `workspace-intelligence-mcp` bin): MCP over stdin/stdout for
 * clients that only start local processes, forwarding to a running service. Stdout is the
 * protocol, so this is started with node itself (npm run prints its banner on stdout) and every
 * message for people goes to stderr.
 */
async function main(): Promise<void> {
  const config = loadMcpStdioConfig();
  const service = await connectToService(config).catch((error: unknown) => {
    throw new Error(describeServiceFailure(config, error));
  });
  // One bridge per stdio connection; serveStdio answers both the 2026-07-28 opening
  // (server/discover) and the 2025 one (initialize) from it.
  const handle = serveStdio(() => createStdioBridge(service, config, (sentence) => console.error(sentence)), {
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

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error instanceof Error ? error.message : String(error));
  process.exit(1);
});
