import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { ApiKeyPrincipal } from "../auth/principal";
import { API_KEY_PREFIX } from "../auth/api-key-secret";
import { keyAllows, READ_SCOPES } from "../auth/scopes";
import { DomainError } from "../domain/errors";
import { ApiError } from "../http/api-error";
import { checkCredentials, readBearerToken } from "../http/authenticate";
import type { AuthFailureLimiter } from "../http/rate-limit/rate-limiters";
import { apiKeyAuthenticator, type McpAuthenticator } from "../mcp/mcp-endpoint";
import { mcpRequestBodyOf, type McpRequestBody } from "../mcp/mcp-request-body";
import { MCP_TOOLS } from "../mcp/tools";
import type { Services } from "../services";
import type { AuthorizationServer } from "./authorization-server";

const quoted = (value: string) => `"${value.replace(/["\\]/g, "")}"`;

/** RFC 6750 §3 with RFC 9728 §5.1: where to learn how to get a token, and which scopes to ask for. */
function challengeWith(server: AuthorizationServer, req: Request, extra: Record<string, string> = {}): string {
  const params = { resource_metadata: server.resourceMetadataUrl(req), scope: READ_SCOPES.join(" "), ...extra };
  return `Bearer ${Object.entries(params).map(([name, value]) => `${name}=${quoted(value)}`).join(", ")}`;
}

/** The 401 challenge of /mcp; `invalid_token` only when a token was sent (RFC 6750 §3.1). */
export const connectorChallenge = (server: AuthorizationServer) => (req: Request) =>
  challengeWith(server, req, req.get("authorization") === undefined ? {} : { error: "invalid_token" });

/**
 * The credential check of /mcp: a workspace API key (`wsi_…`, checked as on the REST API), or an
 * access token the authorization server issued for this very resource (RFC 8707 audience) whose
 * grant is still live. A token for another audience or an expired one is refused (401, with
 * connectorChallenge). Which of the two it was is left in `res.locals.credential`.
 */
export function connectorAuthenticator(server: AuthorizationServer, services: Services, failures?: AuthFailureLimiter): McpAuthenticator {
  const apiKey = apiKeyAuthenticator(services.apiKeys, failures);
  const accessToken = accessTokenAuthenticator(server, services, failures);
  return (req, res) => {
    const isApiKey = readBearerToken(req, "API key or access token").startsWith(API_KEY_PREFIX);
    res.locals.credential = isApiKey ? "api_key" : "access_token";
    return isApiKey ? apiKey(req, res) : accessToken(req, res);
  };
}

function accessTokenAuthenticator(server: AuthorizationServer, services: Services, failures?: AuthFailureLimiter): McpAuthenticator {
  return async (req, res) => {
    const token = readBearerToken(req, "access token");
    const principal = await checkCredentials(req, res, failures, async (): Promise<ApiKeyPrincipal> => {
      const provider = await server.provider(req);
      const accessToken = await provider.AccessToken.find(token);
      if (!accessToken || accessToken.isExpired) throw new DomainError("unauthenticated", "Invalid or expired access token: sign in again through the authorization server");
      const audience = [accessToken.aud ?? []].flat();
      if (audience.length !== 1 || audience[0] !== server.resource(req)) {
        throw new DomainError("unauthenticated", `This access token was not issued for ${server.resource(req)}`);
      }
      const granted = await services.connectedApps.authenticate(accessToken.grantId);
      // The token may carry fewer scopes than its grant (a client may ask for less); never more.
      const scopes = new Set((accessToken.scope ?? "").split(" "));
      return { ...granted, scopes: granted.scopes.filter((scope) => scopes.has(scope)) };
    });
    // An empty list means every scope for an API key; a token with none left may do nothing.
    if (principal.scopes.length === 0) {
      throw new ApiError("forbidden", "This access token holds none of the scopes its grant allows", {
        "WWW-Authenticate": challengeWith(server, req, { error: "insufficient_scope" }),
      });
    }
    return principal;
  };
}

/** The message of a POST as the endpoint read it (batches are refused before), none when it is not JSON. */
function messagesOf(body: McpRequestBody): Array<{ method?: unknown; params?: { name?: unknown } } | null> {
  return body.isJson ? [body.json as { method?: unknown; params?: { name?: unknown } } | null] : [];
}

/**
 * A tool call the grant's scopes do not cover is refused at the HTTP layer with 403
 * `insufficient_scope` naming the scopes needed, so that a client can ask the person for more
 * (MCP authorization, "Scope challenge").
 */
export function requireToolScope(server: AuthorizationServer): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    // An API key's tools beyond its scopes are simply not there, as on /mcp/key: a key's scopes
    // are set by an administrator, not asked of a person by the client.
    if (res.locals.credential !== "access_token") return next();
    const principal = res.locals.principal as ApiKeyPrincipal;
    for (const message of messagesOf(mcpRequestBodyOf(res))) {
      if (message?.method !== "tools/call") continue;
      const tool = MCP_TOOLS.find((candidate) => candidate.name === message.params?.name);
      if (tool && !keyAllows(principal.scopes, tool.scope)) {
        throw new ApiError("forbidden", `This grant lacks the ${tool.scope} scope, which the ${tool.name} tool requires`, {
          "WWW-Authenticate": challengeWith(server, req, { error: "insufficient_scope", scope: [...principal.scopes, tool.scope].join(" ") }),
        });
      }
    }
    next();
  };
}
