import {
  CreateArtifactRequestSchema,
  CreateArtifactResponseSchema,
  IdempotencyHeadersSchema,
} from "../../contracts/artifacts";
import { ErrorSchema } from "../../contracts/common";
import { notImplemented } from "../../http/not-implemented";
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
    201: { description: "The draft was created.", schema: CreateArtifactResponseSchema },
    422: { description: "The Idempotency-Key was used before with a different body.", schema: ErrorSchema },
  },
  handle: async () => notImplemented("POST /api/v1/artifacts"),
});
