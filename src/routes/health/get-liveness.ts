import { z } from "../../contracts/zod";
import { defineRoute } from "../../http/route";
import { MALFORMED_QUERY } from "./probe-responses";

/** Liveness: the process answers HTTP. It reads nothing, so a database outage never restarts it. */
export const getLivenessRoute = defineRoute({
  method: "get",
  path: "/livez",
  operationId: "getLiveness",
  summary: "Liveness: the process answers",
  description:
    "200 whenever the process can answer HTTP; it touches no database, so an outage of the database never gets a healthy process restarted. For a platform's liveness probe.",
  tags: ["Meta"],
  auth: { kind: "public" },
  // Platforms probe it every few seconds.
  rateLimited: false,
  responses: {
    200: { description: "The process answers.", schema: z.object({ status: z.literal("ok") }), example: { status: "ok" } },
    400: MALFORMED_QUERY,
  },
  handle: async () => ({ status: 200, body: { status: "ok" } }),
});
