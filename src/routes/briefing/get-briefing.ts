import { BriefingResponseSchema } from "../../contracts/briefing";
import { ErrorSchema } from "../../contracts/common";
import { notImplemented } from "../../http/not-implemented";
import { defineRoute } from "../../http/route";

export const getBriefingRoute = defineRoute({
  method: "get",
  path: "/api/v1/briefing",
  operationId: "getBriefing",
  summary: "Workspace briefing",
  description: "Workspace context, hard directives, and active rules and definitions (newest first, at most 200).",
  tags: ["Intelligence"],
  auth: { kind: "apiKey", scope: "intelligence:read" },
  responses: {
    200: { description: "The briefing.", schema: BriefingResponseSchema },
    404: { description: "The key's workspace no longer exists.", schema: ErrorSchema },
  },
  handle: async () => notImplemented("GET /api/v1/briefing"),
});
