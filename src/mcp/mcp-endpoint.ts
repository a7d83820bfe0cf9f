import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from "express";
import type { ApiKeyPrincipal } from "../auth/principal";
import { ApiError } from "../http/api-error";
import { toClientError } from "../http/client-error";
import { checkCredentials, readBearerToken } from "../http/authenticate";
import type { AuthFailureLimiter } from "../http/rate-limit/rate-limiters";
import type { Logger } from "../lib/logger";
import type { Services } from "../services";
import { createMcpServer } from "./create-mcp-server";

export const MCP_PATH = "/mcp";

// Tool calls are a few hundred bytes; the REST API's body limit is plenty.
const MAX_REQUEST_BODY_BYTES = 1024 * 1024;

// No resource_metadata: the key is static, there is no authorization server to point to, and
// clients that see OAuth metadata stop sending the configured header (docs/mcp.md).
const CHALLENGE = 'Bearer realm="workspace-intelligence", error="invalid_token"';

export interface McpEndpointDeps {
  services: Services;
  logger: Logger;
  publicBaseUrl?: string;
  /** The per-key rate limit of the REST API, counted after the key check. */
  rateLimit?: RequestHandler;
  /** The REST API's budget of refused keys per client address, shared with it. */
  authFailures?: AuthFailureLimiter;
  /** Where the endpoint answers; MCP_PATH unless another resource is mounted with the same transport. */
  path?: string;
  /**
   * The credential check, which sets `res.locals.principal` and answers refusals with its own
   * challenge; the API key check (requireMcpKey) unless given. A handler here that parses the
   * body leaves it in `req.body` for the transport.
   */
  authenticate?: RequestHandler[];
}

/**
 * The key check of the REST API (same header rules, same service, same 401 sentences), answering
 * with a Bearer challenge. One middleware, so per-key limits can be put beside it.
 */
export function requireMcpKey(apiKeys: Pick<Services["apiKeys"], "authenticate" | "recentlyAccepted">, failures?: AuthFailureLimiter) {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const secret = readBearerToken(req, "API key");
      res.locals.principal = await checkCredentials(req, res, failures, () => apiKeys.authenticate(secret), () => apiKeys.recentlyAccepted(secret));
    } catch (error) {
      const refused = toClientError(error);
      if (refused?.status === 401) throw new ApiError("unauthorized", refused.message, { "WWW-Authenticate": CHALLENGE });
      throw error;
    }
    next();
  };
}

/**
 * `/mcp`: the MCP Streamable HTTP transport, stateless. Each POST gets a server holding the
 * key's tools and a transport answering in JSON; nothing outlives the request.
 */
export function mcpEndpoint({ services, logger, publicBaseUrl, rateLimit, authFailures, path = MCP_PATH, authenticate }: McpEndpointDeps): Router {
  const router = express.Router();
  router.options(path, (_req, res) => {
    res.set("Allow", "POST, OPTIONS").status(204).end();
  });
  router.use(path, ...(authenticate ?? [requireMcpKey(services.apiKeys, authFailures)]));
  if (rateLimit) router.post(path, rateLimit);
  router.post(path, async (req: Request, res: Response) => {
    const principal = res.locals.principal as ApiKeyPrincipal;
    const baseUrl = publicBaseUrl?.replace(/\/+$/, "") ?? `${req.protocol}://${req.get("host")}`;
    const server = createMcpServer({
      principal,
      services,
      baseUrl,
      logger,
      requestId: res.locals.requestId as string,
    });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: MAX_REQUEST_BODY_BYTES,
    });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  // Stateless: no server-to-client stream to open (GET) and no session to end (DELETE).
  router.all(path, (req: Request) => {
    throw new ApiError(
      "method_not_allowed",
      `Method ${req.method} is not allowed on ${path}: this MCP server is stateless and answers POST only`,
      { Allow: "POST, OPTIONS" },
    );
  });
  return router;
}
