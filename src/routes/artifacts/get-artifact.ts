import { restRoute } from "../../http/rest-route";
import { getArtifact } from "../../operations/artifacts";

export const getArtifactRoute = restRoute(getArtifact, {
  method: "get",
  path: "/api/v1/artifacts/{id}",
  tags: ["Artifacts"],
  conditional: true,
  // A validated artifact never changes (review moves drafts only): its id and when its row was written name the answer.
  entityTag: { representation: "artifact-detail 1", of: (artifact) => [artifact.id, String(artifact.updatedAt.getTime())] },
  success: {
    status: 200,
    description: "The artifact.",
    example: {
      id: "art_7Hc2Wq9LmB4xN1tRz6Ke0p",
      summary: "Enterprise churn doubled in Q3",
      why: "Losing large accounts erodes recurring revenue",
      confidence: 0.8,
      confidenceExplanation: "14 months of subscription data",
      keyFindings: ["Churn 4.1% -> 8.3%", "Concentrated in EMEA"],
      dataSources: [{ type: "database", name: "warehouse" }],
      content: "## Churn\nEnterprise churn doubled.",
      contentTruncated: false,
      recommendations: [{ text: "Call the top 20 EMEA accounts before renewal", type: "recommendation" }],
      createdAt: 1763596800000,
      validatedAt: 1763683200000,
    },
  },
});
