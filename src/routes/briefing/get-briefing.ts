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
  conditional: true,
  responses: {
    200: {
      description: "The briefing.",
      schema: BriefingResponseSchema,
      example: {
        workspace: { name: "Acme analytics", context: "B2B SaaS. Fiscal year starts in April. Revenue figures are in EUR." },
        directives: [{ id: "dir_4Qm9ZtV1c8Hb2LxP0aRk7e", name: "No PII", content: "Never select email or phone columns." }],
        directivesAvailable: true,
        memories: [
          {
            type: "definition",
            statement: "Churn means a subscription not renewed within 30 days of its end date.",
            goingForward: "Use subscriptions.ended_at, not cancelled_at.",
            createdAt: 1763596800000,
          },
        ],
      },
    },
    404: {
      description: "The key's workspace no longer exists.",
      schema: ErrorSchema,
      example: { error: "Workspace ws_5Nf2Lp8RtX1cV7bQm3Zy0a no longer exists", code: "not_found" },
    },
  },
  handle: async (_input, { principal, services }) => ({
    status: 200,
    body: toBriefingResponse(await services.briefing.get(principal.workspaceId)),
  }),
});
