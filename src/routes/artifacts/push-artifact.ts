import {
  CreateArtifactRequestSchema,
  CreateArtifactResponseSchema,
  IdempotencyHeadersSchema,
} from "../../contracts/artifacts";
import { ErrorSchema } from "../../contracts/common";
import { defineRoute } from "../../http/route";

export const pushArtifactRoute = defineRoute({
  method: "post",
  path: "/api/v1/artifacts",
  operationId: "pushArtifact",
  summary: "Push a draft artifact",
  description:
    "Creates a draft insight, analysis or prediction in the key's workspace. It becomes searchable only after a human validates it.",
  tags: ["Artifacts"],
  auth: { kind: "apiKey", scope: "artifacts:write" },
  request: {
    body: CreateArtifactRequestSchema,
    headers: IdempotencyHeadersSchema,
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
  },
  responses: {
    201: {
      description: "The draft was created; or, for a repeated Idempotency-Key with the same body, the first answer again.",
      schema: CreateArtifactResponseSchema,
      example: { artifactId: "art_7Hc2Wq9LmB4xN1tRz6Ke0p", status: "draft" },
      headers: {
        "Idempotent-Replayed": { description: "`true` when this answer repeats an earlier one.", schema: { type: "string" } },
      },
    },
    422: {
      description: "The Idempotency-Key was used before with a different body.",
      schema: ErrorSchema,
      example: { error: "Idempotency-Key was already used with a different request body; use a new key for a new artifact", code: "unprocessable" },
    },
  },
  handle: async ({ body, headers }, { principal, services }) => {
    const result = await services.artifacts.push(principal, body, headers["idempotency-key"]);
    return {
      status: 201,
      body: { artifactId: result.artifactId, status: "draft" },
      headers: result.replayed ? { "Idempotent-Replayed": "true" } : undefined,
    };
  },
});
