import express, { type Express } from "express";
import { ApiError } from "./http/api-error";
import { errorHandler, notFoundHandler } from "./http/error-handler";
import { metricsEndpoint, type MetricsEndpointOptions } from "./http/metrics-endpoint";
import { mountRoutes } from "./http/mount-routes";
import { createRateLimitCounterRepository } from "./repositories/rate-limit-counter.repository";
import { createRateLimiters, DEFAULT_RATE_LIMITS, type RateLimitSettings } from "./http/rate-limit/rate-limiters";
import { requestContext } from "./http/request-context";
import type { Logger } from "./lib/logger";
import { consoleRouter } from "./console/router";
import { MCP_KEY_PATH, MCP_PATH, mcpEndpoint } from "./mcp/mcp-endpoint";
import { createAuthorizationServer, METADATA_PATHS } from "./oauth/authorization-server";
import { connectorAuthenticator, connectorChallenge, requireToolScope } from "./oauth/connector-auth";
import { oauthRouter } from "./oauth/oauth-routes";
import { adminV1Routes } from "./routes/admin";
import { apiV1Routes } from "./routes/api-v1";
import { referencePageRouter } from "./routes/docs/reference-page";
import { downloadFileRoute } from "./routes/downloads/download-file";
import { PROBE_ROUTES } from "./routes/health/probe-routes";
import type { Services } from "./services";

export interface AppDeps {
  services: Services;
  logger: Logger;
  /** The admin API is mounted only when a token is given. */
  adminToken?: string;
  publicBaseUrl?: string;
  /** Express's `trust proxy` (TRUST_PROXY): which hops' X-Forwarded-For/-Proto to believe. */
  trustProxy?: boolean | number | string;
  /** Defaults to DEFAULT_RATE_LIMITS. */
  rateLimits?: RateLimitSettings;
  /** SIGNING_SECRET: also signs the OAuth authorization server's cookies, so that every process reads them. */
  signingSecret?: string;
  /** Most OAuth clients registered at once (OAUTH_MAX_CLIENTS). */
  maxOAuthClients?: number;
  /** A CA (PEM) also trusted for Client ID Metadata Documents (OAUTH_CLIENT_METADATA_CA_FILE). */
  clientMetadataCa?: string;
  /** Client ID Metadata Documents may be fetched from loopback addresses: tests only, no setting turns it on. */
  clientMetadataLoopback?: boolean;
  /** GET /metrics to a bearer token (telemetry on, Prometheus exporter, METRICS_TOKEN); absent otherwise. */
  metrics?: MetricsEndpointOptions;
  /** Also parse every answer through its contract schema and compare (CHECK_RESPONSES); on unless said otherwise, as in tests. */
  checkResponses?: boolean;
}

/** Builds the HTTP application from its dependencies; starting it is server.ts's job. */
export function buildApp({ services, logger, adminToken, publicBaseUrl, trustProxy = false, rateLimits = DEFAULT_RATE_LIMITS, signingSecret, maxOAuthClients, clientMetadataCa, clientMetadataLoopback, metrics, checkResponses = true }: AppDeps): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", trustProxy);
  // Repeated parameters arrive as arrays and are refused by name; no nested-object syntax.
  app.set("query parser", "simple");
  app.set("json spaces", 0);
  // Entity tags only where a route declares `conditional` (src/http/conditional-get.ts): Express's
  // default would hash every answer, pushes and errors included.
  app.set("etag", false);
  app.use(requestContext(logger));
  if (metrics) app.use(metricsEndpoint(metrics));

  const router = express.Router();
  const rateLimiters = createRateLimiters(rateLimits, { kind: services.database.kind, counters: createRateLimitCounterRepository(services.database.prisma) });
  const authFailures = rateLimiters.authFailures;
  mountRoutes(router, [...PROBE_ROUTES, downloadFileRoute, ...apiV1Routes(publicBaseUrl)], { services, rateLimiters, authFailures, checkResponses });
  if (adminToken) {
    mountRoutes(router, adminV1Routes(), { services, adminToken, authFailures: rateLimiters.adminTokenFailures, checkResponses });
  } else {
    router.use("/admin/v1", () => {
      throw new ApiError("not_found", "The admin API is disabled on this server: set ADMIN_TOKEN to enable it");
    });
  }
  app.use(router);
  const authorization = createAuthorizationServer({
    services,
    logger,
    publicBaseUrl,
    cookieSecret: signingSecret,
    trustProxy,
    maxClients: maxOAuthClients,
    clientMetadataCa,
    clientMetadataLoopback,
  });
  app.use("/console", consoleRouter(services, logger, { signInLimiter: rateLimiters.signIn, authorization }));
  // MCP for agents (docs/mcp.md): before the 404 handler, with its own transport and errors.
  // /mcp is the address to give any client: an API key, or OAuth (advertised in its 401) for
  // hosted connectors that only know the URL. /mcp/key is the same server for API keys alone,
  // advertising nothing, for header clients that drop their header once they see OAuth.
  app.use(METADATA_PATHS, rateLimiters.metadata);
  app.use(oauthRouter(authorization, services, { registrationLimiter: rateLimiters.registrations }));
  app.use(
    mcpEndpoint({
      services,
      logger,
      publicBaseUrl,
      rateLimit: rateLimiters.perKey,
      authFailures,
      path: MCP_PATH,
      authenticate: connectorAuthenticator(authorization, services, authFailures),
      challenge: connectorChallenge(authorization),
      checkRequest: requireToolScope(authorization),
    }),
  );
  app.use(mcpEndpoint({ services, logger, publicBaseUrl, rateLimit: rateLimiters.perKey, authFailures, path: MCP_KEY_PATH }));
  app.use(referencePageRouter(publicBaseUrl));
  app.use(notFoundHandler);
  app.use(errorHandler(logger));
  return app;
}
