import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ConfigError, loadMcpStdioConfig } from "../config";
import { connectToService, createStdioBridge } from "./stdio-bridge";

/**
 * `npm run mcp:stdio` / `node dist/mcp/stdio.js`: MCP over stdin/stdout for clients that only
 * start local processes, forwarding to a running service. Stdout is the protocol: messages for
 * people go to stderr.
 */
async function main(): Promise<void> {
  const config = loadMcpStdioConfig();
  const service = await connectToService(config).catch((error: unknown) => {
    throw new Error(`Could not reach the MCP endpoint at ${new URL("/mcp", config.baseUrl)} with WSI_API_KEY: ${describe(error)}`);
  });
  const bridge = createStdioBridge(service);
  const stop = async () => {
    await bridge.close();
    await service.close();
    process.exit(0);
  };
  process.stdin.on("end", () => void stop());
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
  await bridge.connect(new StdioServerTransport());
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : describe(error));
  process.exit(1);
});
