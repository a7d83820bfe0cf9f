import { ErrorSchema } from "../../contracts/common";
import {
  AdminArtifactIdParamsSchema,
  DisputeArtifactRequestSchema,
  ReviewQueueQuerySchema,
  ReviewQueueSchema,
  ReviewResultSchema,
  ValidateArtifactRequestSchema,
  WorkspaceIdParamsSchema,
} from "../../contracts/admin";
import { defineRoute } from "../../http/route";
import { toReviewQueueItem } from "../../operations/artifact-wire";

export const listReviewQueueRoute = defineRoute({
  method: "get",
  path: "/admin/v1/workspaces/{id}/artifacts",
  operationId: "adminListArtifacts",
  summary: "Review queue",
  description: "The workspace's artifacts, newest first, optionally of one status.",
  tags: ["Review"],
  auth: { kind: "admin" },
  request: { params: WorkspaceIdParamsSchema, query: ReviewQueueQuerySchema },
  responses: {
    200: { description: "The artifacts.", schema: ReviewQueueSchema },
    404: { description: "No such workspace.", schema: ErrorSchema },
  },
  handle: async ({ params, query }, { services }) => ({
    status: 200,
    body: { items: (await services.review.queue(params.id, query.status)).map(toReviewQueueItem) },
  }),
});

export const validateArtifactRoute = defineRoute({
  method: "post",
  path: "/admin/v1/artifacts/{id}/validate",
  operationId: "adminValidateArtifact",
  summary: "Validate a draft",
  tags: ["Review"],
  auth: { kind: "admin" },
  request: { params: AdminArtifactIdParamsSchema, body: ValidateArtifactRequestSchema },
  responses: {
    200: { description: "Validated.", schema: ReviewResultSchema },
    404: { description: "No such artifact.", schema: ErrorSchema },
    409: { description: "The artifact is not a draft.", schema: ErrorSchema },
  },
  handle: async ({ params, body }, { services }) => ({
    status: 200,
    body: await services.review.validate(params.id, body.by),
  }),
});

export const disputeArtifactRoute = defineRoute({
  method: "post",
  path: "/admin/v1/artifacts/{id}/dispute",
  operationId: "adminDisputeArtifact",
  summary: "Dispute a draft, with a reason",
  tags: ["Review"],
  auth: { kind: "admin" },
  request: { params: AdminArtifactIdParamsSchema, body: DisputeArtifactRequestSchema },
  responses: {
    200: { description: "Disputed.", schema: ReviewResultSchema },
    404: { description: "No such artifact.", schema: ErrorSchema },
    409: { description: "The artifact is not a draft.", schema: ErrorSchema },
  },
  handle: async ({ params, body }, { services }) => ({
    status: 200,
    body: await services.review.dispute(params.id, body.by, body.reason),
  }),
});
