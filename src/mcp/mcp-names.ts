// Names both the service and the stdio command use. The command imports only this of the
// service's code, so it starts without loading the services, Prisma or the embedding model.
export const MCP_PATH = "/mcp";
export const MCP_SERVER_NAME = "workspace-intelligence";
