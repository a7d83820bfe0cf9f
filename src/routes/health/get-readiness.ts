import { z } from "../../contracts/zod";
import { ErrorSchema } from "../../contracts/common";
import { checkDatabaseReady, DatabaseNotReadyError } from "../../db/database-readiness";
import { ApiError } from "../../http/api-error";
import { defineRoute } from "../../http/route";
import { MALFORMED_QUERY } from "./probe-responses";

/**
 * Readiness: whether this process can serve requests now, so that a router or a Kubernetes
 * Service sends it traffic only then. The same check as at start: the database answers, has
 * pgvector 0.8 or newer, and every migration this release brings. On Citus a worker that is
 * away does not make the process unready (another process could do no better, and the workspaces
 * on the other workers are served): the answer names it.
 */
export const getReadinessRoute = defineRoute({
  method: "get",
  path: "/readyz",
  operationId: "getReadiness",
  summary: "Readiness: the database answers and has this release's migrations",
  description:
    "200 when the database answers, has pgvector 0.8.0 or newer and every migration this release brings; 503 otherwise, saying which. For a platform's readiness probe: a process answering 503 is kept out of rotation, not restarted. On a Citus cluster the answer lists the workers and whether the coordinator reaches each: a worker that is away leaves the process ready (its workspaces are answered 503 meanwhile, the others served).",
  tags: ["Meta"],
  auth: { kind: "public" },
  rateLimited: false,
  responses: {
    200: {
      description: "Ready to serve.",
      schema: z.object({
        status: z.literal("ok"),
        nodes: z
          .array(
            z.object({
              node: z.string().describe("The worker, host:port as the cluster names it."),
              reachable: z.boolean(),
              since: z.string().describe("Since when, as far as this process knows (ISO 8601)."),
            }),
          )
          .optional()
          .describe("On a Citus cluster only: each worker and whether the coordinator reaches it."),
      }),
      example: { status: "ok" },
    },
    400: MALFORMED_QUERY,
    503: {
      description: "Not ready: the database does not answer, or lacks a migration or pgvector 0.8.",
      schema: ErrorSchema,
      example: {
        error: "The database lacks migration 20261127090000_oauth_connected_apps: run `npm run migrate` (the release phase runs `node dist/cli/migrate.js`).",
        code: "service_unavailable",
      },
    },
  },
  handle: async (_input, { services }) => {
    try {
      await checkDatabaseReady(services.database.executor);
    } catch (error) {
      if (error instanceof DatabaseNotReadyError) throw new ApiError("service_unavailable", error.message);
      throw new ApiError("service_unavailable", "The database is not answering");
    }
    const nodes = await services.database.nodes.check();
    return { status: 200, body: nodes.length > 0 ? { status: "ok", nodes } : { status: "ok" } };
  },
});
