import { BriefingResponseSchema } from "../../contracts/briefing";
import { ErrorSchema } from "../../contracts/common";
import { defineRoute } from "../../http/route";
import { toBriefingResponse } from "./to-wire";

export const getBriefingRoute = defineRoute({
  method: "get",
  path: "/api/v1/briefing",
  operationId: "getBriefing",
  summary: "Workspace briefing",
  description:
    "Workspace context, hard directives, and active rules and definitions (newest first, at most 200). When the directive store cannot be read, `directives` is empty and `directivesAvailable` is false.",
  tags: ["Intelligence"],
  auth: { kind: "apiKey", scope: "intelligence:read" },
  responses: {
    200: { description: "The briefing.", schema: BriefingResponseSchema },
    404: { description: "The key's workspace no longer exists.", schema: ErrorSchema },
  },
  handle: async (_input, { principal, services }) => ({
    status: 200,
    body: toBriefingResponse(await services.briefing.get(principal.workspaceId)),
  }),
});
