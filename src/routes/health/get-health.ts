import { z } from "../../contracts/zod";
import { ApiError } from "../../http/api-error";
import { defineRoute } from "../../http/route";

export const getHealthRoute = defineRoute({
  method: "get",
  path: "/healthz",
  operationId: "getHealth",
  summary: "Liveness and database reachability",
  tags: ["Meta"],
  auth: { kind: "public" },
  // Platforms probe it every few seconds, and it reads nothing of a workspace.
  rateLimited: false,
  responses: { 200: { description: "Up, and the database answers.", schema: z.object({ status: z.literal("ok") }) } },
  handle: async (_input, { services }) => {
    try {
      await services.database.ping();
    } catch {
      throw new ApiError("service_unavailable", "The database is not answering");
    }
    return { status: 200, body: { status: "ok" } };
  },
});
