import { restRoute } from "../../http/rest-route";
import { getBriefing } from "../../operations/intelligence";

export const getBriefingRoute = restRoute(getBriefing, {
  method: "get",
  path: "/api/v1/briefing",
  tags: ["Intelligence"],
  conditional: true,
  success: {
    status: 200,
    description: "The briefing.",
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
});
