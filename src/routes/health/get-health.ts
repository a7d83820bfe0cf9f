import { z } from "../../contracts/zod";
import { ErrorSchema } from "../../contracts/common";
import { ApiError } from "../../http/api-error";
import { defineRoute } from "../../http/route";
import { MALFORMED_QUERY } from "./probe-responses";

export const getHealthRoute = defineRoute({
  method: "get",
  path: "/healthz",
  operationId: "getHealth",
  summary: "Liveness and database reachability",
  description:
    "200 when the database answers a query, 503 otherwise. Kept for probes configured before `/livez` and `/readyz`, which split the two questions: use `/livez` for liveness (it never fails because of the database) and `/readyz` for readiness (it also checks migrations).",
  tags: ["Meta"],
  auth: { kind: "public" },
  // Platforms probe it every few seconds, and it reads nothing of a workspace.
  rateLimited: false,
  responses: {
    200: { description: "Up, and the database answers.", schema: z.object({ status: z.literal("ok") }), example: { status: "ok" } },
    400: MALFORMED_QUERY,
    503: { description: "The database is not answering.", schema: ErrorSchema },
  },
  handle: async (_input, { services }) => {
    try {
      await services.database.ping();
    } catch {
      throw new ApiError("service_unavailable", "The database is not answering");
    }
    return { status: 200, body: { status: "ok" } };
  },
});
