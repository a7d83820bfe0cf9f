import { restRoute } from "../../http/rest-route";
import { pushArtifact } from "../../operations/artifacts";

export const pushArtifactRoute = restRoute(pushArtifact, {
  method: "post",
  path: "/api/v1/artifacts",
  tags: ["Artifacts"],
  body: "artifact",
  bodyExample: {
    summary: "Enterprise churn doubled in Q3",
    why: "Losing large accounts erodes recurring revenue",
    confidence: 0.8,
    confidenceExplanation: "14 months of subscription data",
    keyFindings: ["Churn 4.1% -> 8.3%", "Concentrated in EMEA"],
    recommendations: [{ text: "Call the top 20 EMEA accounts before renewal", type: "recommendation" }],
    dataSources: [{ type: "database", name: "warehouse" }],
    content: "## Churn\nEnterprise churn doubled.",
  },
  headers: { "idempotency-key": "idempotencyKey" },
  success: {
    status: 201,
    description: "The draft was created; or, for a repeated Idempotency-Key with the same body, the first answer again.",
    example: { artifactId: "art_7Hc2Wq9LmB4xN1tRz6Ke0p", status: "draft" },
    headers: {
      "Idempotent-Replayed": { description: "`true` when this answer repeats an earlier one.", schema: { type: "string" } },
    },
  },
  responseHeaders: (result) => (result.replayed ? { "Idempotent-Replayed": "true" } : undefined),
});
