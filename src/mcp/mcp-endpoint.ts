import express, { type Request, type RequestHandler, type Response, type Router } from "express";
import type { ApiKeyPrincipal } from "../auth/principal";
import { ApiError } from "../http/api-error";
import { toClientError } from "../http/client-error";
import { checkCredentials, readBearerToken } from "../http/authenticate";
import { onBehalfOf } from "../db/workspace-scope";
import type { AuthFailureLimiter } from "../http/rate-limit/rate-limiters";
import type { Logger } from "../lib/logger";
import type { Services } from "../services";
import { createMcpServer } from "./create-mcp-server";
import { MCP_KEY_PATH, MCP_PATH } from "./mcp-names";
import { requireLoopbackHost, requireOwnOrigin } from "./mcp-origin";
import { mcpRequestBody, mcpRequestBodyOf } from "./mcp-request-body";
import { createMcpTransport } from "./mcp-transport";

export { MCP_KEY_PATH, MCP_PATH };

// No resource_metadata: the key-only endpoint points to no authorization server, since some
// clients that see OAuth metadata stop sending the configured header (docs/mcp.md).
export const API_KEY_CHALLENGE = 'Bearer realm="workspace-intelligence", error="invalid_token"';

/**
 * Resolves the caller's credentials to the principal the tools act for, or throws (a 401 ApiError
 * for refused credentials; the endpoint adds its challenge). May answer 429 through the budget of
 * refused credentials.
 */
export type McpAuthenticator = (req: Request, res: Response) => Promise<ApiKeyPrincipal>;

export interface McpEndpointDeps {
  services: Services;
  logger: Logger;
  publicBaseUrl?: string;
  /** Where the endpoint answers; MCP_PATH unless a second endpoint is mounted beside it. */
  path?: string;
  /** The credential check; the API-key check of the REST API unless given. */
  authenticate?: McpAuthenticator;
  /** The `WWW-Authenticate` value of a 401; API_KEY_CHALLENGE unless given (a function, for challenges naming an absolute URL). */
  challenge?: string | ((req: Request) => string);
  /** The per-key rate limit of the REST API, counted after the credential check. */
  rateLimit?: RequestHandler;
  /**
   * Checks of the request as read (its message in `mcpRequestBodyOf(res)`) before any server is
   * built, for refusals at HTTP level that need the message (a scope challenge naming the tool's scope).
   */
  checkRequest?: RequestHandler;
  /** The REST API's budget of refused keys per client address, shared with it. */
  authFailures?: AuthFailureLimiter;
}

/** The key check of the REST API: same header rules, same service, same 401 sentences. */
export function apiKeyAuthenticator(
  apiKeys: Pick<Services["apiKeys"], "authenticate">,
  failures?: AuthFailureLimiter,
): McpAuthenticator {
  return (req, res) => {
    const secret = readBearerToken(req, "API key");
    return checkCredentials(req, res, failures, () => apiKeys.authenticate(secret));
  };
}

/**
 * An MCP endpoint (Streamable HTTP, stateless): Host and Origin checks, credential check, rate
 * limit, the body read once (batches refused), then one server per POST holding the principal's
 * tools; nothing outlives the request. The credential check and its challenge are inputs, so
 * endpoints for other kinds of credentials share the rest.
 */
export function mcpEndpoint({
  services,
  logger,
  publicBaseUrl,
  path = MCP_PATH,
  authenticate,
  challenge = API_KEY_CHALLENGE,
  rateLimit,
  checkRequest,
  authFailures,
}: McpEndpointDeps): Router {
  const check = authenticate ?? apiKeyAuthenticator(services.apiKeys, authFailures);
  const challengeFor = typeof challenge === "function" ? challenge : () => challenge;
  const serve = createMcpTransport();
  const router = express.Router();
  router.options(path, (_req, res) => {
    res.set("Allow", "POST, OPTIONS").status(204).end();
  });
  // `all`, not `use`: an endpoint's checks apply to its own path, not to paths under it (/mcp/key).
  router.all(path, requireLoopbackHost(path, publicBaseUrl), requireOwnOrigin(path, publicBaseUrl));
  router.all(path, async (req: Request, res: Response, next) => {
    try {
      res.locals.principal = await check(req, res);
    } catch (error) {
      const refused = toClientError(error);
      if (refused?.status === 401) throw new ApiError("unauthorized", refused.message, { ...refused.headers, "WWW-Authenticate": challengeFor(req) });
      throw error;
    }
    onBehalfOf((res.locals.principal as ApiKeyPrincipal).workspaceId, next);
  });
  if (rateLimit) router.post(path, rateLimit);
  router.post(path, mcpRequestBody(path));
  if (checkRequest) router.post(path, checkRequest);
  router.post(path, async (req: Request, res: Response) => {
    const principal = res.locals.principal as ApiKeyPrincipal;
    const baseUrl = publicBaseUrl?.replace(/\/+$/, "") ?? `${req.protocol}://${req.get("host")}`;
    await serve(req, res, mcpRequestBodyOf(res), () =>
      createMcpServer({ principal, services, baseUrl, logger, requestId: res.locals.requestId as string }),
    );
  });
  // Stateless: no server-to-client stream to open (GET) and no session to end (DELETE).
  router.all(path, (req: Request) => {
    throw new ApiError("method_not_allowed", `Method ${req.method} is not allowed on ${path}: this MCP server is stateless and answers POST only`, {
      Allow: "POST, OPTIONS",
    });
  });
  return router;
}
