import { ArtifactDetailSchema, ArtifactIdParamsSchema } from "../../contracts/artifacts";
import { ErrorSchema } from "../../contracts/common";
import { defineRoute } from "../../http/route";
import { toArtifactDetail } from "./to-wire";

export const getArtifactRoute = defineRoute({
  method: "get",
  path: "/api/v1/artifacts/{id}",
  operationId: "getArtifact",
  summary: "Fetch a validated artifact",
  description: "The full artifact, with its content cut to 20,000 characters.",
  tags: ["Artifacts"],
  auth: { kind: "apiKey", scope: "artifacts:read" },
  request: { params: ArtifactIdParamsSchema },
  conditional: true,
  responses: {
    200: {
      description: "The artifact.",
      schema: ArtifactDetailSchema,
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
    404: {
      description: "No validated artifact with this id in the key's workspace.",
      schema: ErrorSchema,
      example: { error: "Artifact art_7Hc2Wq9LmB4xN1tRz6Ke0p not found", code: "not_found" },
    },
  },
  handle: async ({ params }, { principal, services }) => ({
    status: 200,
    body: toArtifactDetail(await services.artifacts.getValidated(principal, params.id)),
  }),
});
