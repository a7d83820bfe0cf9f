import express, { type NextFunction, type Request, type RequestHandler, type Response } from "express";
import type { ApiKeyPrincipal } from "../auth/principal";
import { keyAllows, READ_SCOPES } from "../auth/scopes";
import { DomainError } from "../domain/errors";
import { ApiError } from "../http/api-error";
import { checkCredentials, readBearerToken } from "../http/authenticate";
import { toClientError } from "../http/client-error";
import type { AuthFailureLimiter } from "../http/rate-limit/rate-limiters";
import { MCP_TOOLS } from "../mcp/tools";
import type { Services } from "../services";
import type { AuthorizationServer } from "./authorization-server";

// The MCP transport's own limit; the body is parsed here so that a tool's scope can be checked first.
const MAX_REQUEST_BODY_BYTES = 1024 * 1024;

const quoted = (value: string) => `"${value.replace(/["\\]/g, "")}"`;

/** RFC 6750 §3 with RFC 9728 §5.1: where to learn how to get a token, and which scopes to ask for. */
function challenge(server: AuthorizationServer, req: Request, extra: Record<string, string> = {}): string {
  const params = { resource_metadata: server.resourceMetadataUrl(req), scope: READ_SCOPES.join(" "), ...extra };
  return `Bearer ${Object.entries(params).map(([name, value]) => `${name}=${quoted(value)}`).join(", ")}`;
}

/**
 * The credential check of /connector/mcp: an access token the authorization server issued for
 * this very resource (RFC 8707 audience), whose grant is still live. An API key, a token for
 * another audience or an expired one is a 401 that points to the metadata.
 */
export function requireConnectorToken(server: AuthorizationServer, services: Services, failures?: AuthFailureLimiter): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const token = readBearerToken(req, "access token");
      res.locals.principal = await checkCredentials(req, res, failures, async (): Promise<ApiKeyPrincipal> => {
        const provider = await server.provider(req);
        const accessToken = await provider.AccessToken.find(token);
        if (!accessToken || accessToken.isExpired) throw new DomainError("unauthenticated", "Invalid or expired access token: sign in again through the authorization server");
        const audience = [accessToken.aud ?? []].flat();
        if (audience.length !== 1 || audience[0] !== server.resource(req)) {
          throw new DomainError("unauthenticated", `This access token was not issued for ${server.resource(req)}`);
        }
        const principal = await services.connectedApps.authenticate(accessToken.grantId);
        // The token may carry fewer scopes than its grant (a client may ask for less); never more.
        const granted = new Set((accessToken.scope ?? "").split(" "));
        return { ...principal, scopes: principal.scopes.filter((scope) => granted.has(scope)) };
      });
    } catch (error) {
      const refused = toClientError(error);
      if (refused?.status === 401) {
        const hadToken = req.get("authorization") !== undefined;
        throw new ApiError("unauthorized", refused.message, { "WWW-Authenticate": challenge(server, req, hadToken ? { error: "invalid_token" } : {}) });
      }
      throw error;
    }
    const principal = res.locals.principal as ApiKeyPrincipal;
    // An empty list means every scope for an API key; a token with none left may do nothing.
    if (principal.scopes.length === 0) {
      throw new ApiError("forbidden", "This access token holds none of the scopes its grant allows", {
        "WWW-Authenticate": challenge(server, req, { error: "insufficient_scope" }),
      });
    }
    next();
  };
}

const parseJson = express.json({ limit: MAX_REQUEST_BODY_BYTES });

/**
 * A tool call the grant's scopes do not cover is refused at the HTTP layer with 403
 * `insufficient_scope` naming the scope, so that a client can ask the person for more (MCP
 * authorization, "Scope challenge"). Runs after the token check; hands the parsed body on.
 */
export function requireToolScope(server: AuthorizationServer): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    parseJson(req, res, (error?: unknown) => {
      if (error) return next(error);
      const principal = res.locals.principal as ApiKeyPrincipal;
      const messages = [req.body].flat() as Array<{ method?: unknown; params?: { name?: unknown } } | null>;
      for (const message of messages) {
        if (message?.method !== "tools/call") continue;
        const tool = MCP_TOOLS.find((candidate) => candidate.name === message.params?.name);
        if (tool && !keyAllows(principal.scopes, tool.scope)) {
          return next(
            new ApiError("forbidden", `This grant lacks the ${tool.scope} scope, which the ${tool.name} tool requires`, {
              "WWW-Authenticate": challenge(server, req, { error: "insufficient_scope", scope: [...principal.scopes, tool.scope].join(" ") }),
            }),
          );
        }
      }
      next();
    });
  };
}
