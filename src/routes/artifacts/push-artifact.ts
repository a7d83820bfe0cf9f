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
  request: { body: CreateArtifactRequestSchema, headers: IdempotencyHeadersSchema },
  responses: {
    201: {
      description: "The draft was created; or, for a repeated Idempotency-Key with the same body, the first answer again.",
      schema: CreateArtifactResponseSchema,
      headers: {
        "Idempotent-Replayed": { description: "`true` when this answer repeats an earlier one.", schema: { type: "string" } },
      },
    },
    422: { description: "The Idempotency-Key was used before with a different body.", schema: ErrorSchema },
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
