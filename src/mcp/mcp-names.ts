// Names both the service and the stdio command use. The command imports only this of the
// service's code, so it starts without loading the services, Prisma or the embedding model.
/** The address to give any MCP client: API keys, or OAuth for clients that only know the URL. */
export const MCP_PATH = "/mcp";
/**
 * The same server for API keys only, advertising no authorization server: for header-configured
 * clients that stop sending their header once a server advertises OAuth (docs/mcp.md).
 */
export const MCP_KEY_PATH = "/mcp/key";
export const MCP_SERVER_NAME = "workspace-intelligence";
