import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from "express";
import { READ_SCOPES } from "../auth/scopes";
import { ApiError } from "../http/api-error";
import type { Services } from "../services";
import { MCP_PATH } from "../mcp/mcp-names";
import { OAUTH_PATH, type AuthorizationServer } from "./authorization-server";
import { clientMetadataProblem } from "./client-metadata-rules";

/** RFC 7591 limits, so that registration cannot be used to fill the database with large records. */
export const REGISTRATION_LIMITS = {
  bodyBytes: 8 * 1024,
  redirectUris: 5,
  uriLength: 2_000,
  textLength: 200,
} as const;

const TEXT_FIELDS = ["client_name", "software_id", "software_version"] as const;
const URI_FIELDS = ["client_uri", "logo_uri", "tos_uri", "policy_uri", "jwks_uri"] as const;

/** An OAuth error body (RFC 6749 §5.2, RFC 7591 §3.2.2): `error` is a code, the sentence is `error_description`. */
const oauthError = (res: Response, status: number, error: string, description: string) =>
  res.status(status).set("Cache-Control", "no-store").json({ error, error_description: description });

function checkRegistration(body: unknown): { error: string; description: string } | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return { error: "invalid_client_metadata", description: "The body must be a JSON object of client metadata" };
  const metadata = body as Record<string, unknown>;
  const uris = metadata.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0) return { error: "invalid_redirect_uri", description: "redirect_uris: give at least one redirect URI" };
  if (uris.length > REGISTRATION_LIMITS.redirectUris) return { error: "invalid_redirect_uri", description: `redirect_uris: at most ${REGISTRATION_LIMITS.redirectUris}` };
  if (uris.some((uri) => typeof uri !== "string" || uri.length > REGISTRATION_LIMITS.uriLength)) {
    return { error: "invalid_redirect_uri", description: `redirect_uris: each must be a string of at most ${REGISTRATION_LIMITS.uriLength} characters` };
  }
  for (const field of TEXT_FIELDS) {
    const value = metadata[field];
    if (value !== undefined && (typeof value !== "string" || value.length > REGISTRATION_LIMITS.textLength)) {
      return { error: "invalid_client_metadata", description: `${field}: must be a string of at most ${REGISTRATION_LIMITS.textLength} characters` };
    }
  }
  for (const field of URI_FIELDS) {
    const value = metadata[field];
    if (value !== undefined && (typeof value !== "string" || value.length > REGISTRATION_LIMITS.uriLength)) {
      return { error: "invalid_client_metadata", description: `${field}: must be a URI of at most ${REGISTRATION_LIMITS.uriLength} characters` };
    }
  }
  if (metadata.jwks !== undefined) return { error: "invalid_client_metadata", description: "jwks: not accepted here; public clients need no keys" };
  return clientMetadataProblem(metadata);
}

/**
 * The authorization server's HTTP surface: Protected Resource Metadata of /mcp (RFC
 * 9728), authorization server metadata (RFC 8414) at its path-aware address, registration with
 * limits, and oidc-provider itself under /oauth.
 */
export function oauthRouter(server: AuthorizationServer, services: Services, options: { registrationLimiter?: RequestHandler } = {}): Router {
  const router = express.Router();
  const callback = async (req: Request, res: Response) => (await server.provider(req)).callback()(req, res);

  // Public metadata: any origin may read it, as browser-based clients do.
  router.get(`/.well-known/oauth-protected-resource${MCP_PATH}`, (req: Request, res: Response) => {
    res.set({ "Access-Control-Allow-Origin": "*", "Cache-Control": "public, max-age=300" }).json({
      resource: server.resource(req),
      authorization_servers: [server.issuer(req)],
      scopes_supported: READ_SCOPES,
      bearer_methods_supported: ["header"],
      resource_name: "Workspace Intelligence (MCP, read-only)",
      resource_documentation: `${server.baseUrl(req)}/docs`,
    });
  });

  // RFC 8414 §3.1: the issuer's path goes after the well-known segment.
  router.get(`/.well-known/oauth-authorization-server${OAUTH_PATH}`, async (req: Request, res: Response) => {
    res.set("Access-Control-Allow-Origin", "*");
    // As if asked under the mount path, from which oidc-provider derives its endpoints' URLs.
    req.originalUrl = `${OAUTH_PATH}/.well-known/openid-configuration`;
    req.url = "/.well-known/openid-configuration";
    await callback(req, res);
  });

  // The shared limiter's refusal, said in the OAuth error format registration clients parse.
  const limitRegistrations: RequestHandler = (req, res, next) => {
    if (!options.registrationLimiter) return next();
    options.registrationLimiter(req, res, (error?: unknown) => {
      if (error instanceof ApiError && error.status === 429) {
        res.set(error.headers);
        return oauthError(res, 429, "temporarily_unavailable", error.message);
      }
      next(error);
    });
  };
  const parseRegistration = express.json({ limit: REGISTRATION_LIMITS.bodyBytes, type: () => true });
  router.post(`${OAUTH_PATH}/register`, limitRegistrations, (req: Request, res: Response, next: NextFunction) => {
    parseRegistration(req, res, (error?: unknown) => {
      if (error) {
        const tooLarge = (error as { type?: string }).type === "entity.too.large";
        return oauthError(res, tooLarge ? 413 : 400, "invalid_client_metadata", tooLarge ? `The registration body is larger than ${REGISTRATION_LIMITS.bodyBytes} bytes` : "The body is not valid JSON");
      }
      const problem = checkRegistration(req.body);
      if (problem) return oauthError(res, 400, problem.error, problem.description);
      next();
    });
  }, async (_req: Request, res: Response, next: NextFunction) => {
    if ((await services.oauthStore.registeredClients()) >= server.maxClients) {
      return oauthError(res, 503, "temporarily_unavailable", "This server accepts no more client registrations at the moment; use a Client ID Metadata Document or try later");
    }
    next();
  });

  router.use(OAUTH_PATH, callback);
  return router;
}
