import express, { type Request, type Response, type Router } from "express";
import type { IncomingMessage, ServerResponse } from "node:http";
import { constantTimeEqual } from "../auth/api-key-secret";
import { ApiError } from "./api-error";
import { readBearerToken } from "./authenticate";

export const METRICS_PATH = "/metrics";

export interface MetricsEndpointOptions {
  /** METRICS_TOKEN: the bearer token a scraper sends. */
  token: string;
  /** Writes the Prometheus text (the SDK's Prometheus exporter). */
  serve(req: IncomingMessage, res: ServerResponse): void;
}

/**
 * GET /metrics on the web port, for platforms that route one port only (Heroku-style): the
 * Prometheus text to the holder of METRICS_TOKEN, 401 to anyone else. Absent unless telemetry is on
 * with the Prometheus exporter and a token is set (docs/operations.md). Not in the OpenAPI document:
 * it is the operator's, not a partner's.
 */
export function metricsEndpoint({ token, serve }: MetricsEndpointOptions): Router {
  const router = express.Router();
  router.get(METRICS_PATH, (req: Request, res: Response) => {
    const presented = readBearerToken(req, "metrics token");
    if (!constantTimeEqual(presented, token)) {
      throw new ApiError("unauthorized", "Invalid metrics token", { "WWW-Authenticate": 'Bearer realm="metrics"' });
    }
    serve(req, res);
  });
  return router;
}
