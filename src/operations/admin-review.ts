import {
  AdminArtifactIdParamsSchema,
  DisputeArtifactRequestSchema,
  MAX_DISPUTE_REASON_LENGTH,
  ReviewQueueQuerySchema,
  ReviewQueueSchema,
  ReviewResultSchema,
  ValidateArtifactRequestSchema,
  WorkspaceIdParamsSchema,
} from "../contracts/admin";
import { toReviewQueueItem } from "./artifact-wire";
import { NO_SUCH_WORKSPACE } from "./admin-workspaces";
import { defineOperation } from "./operation";

const NO_SUCH_ARTIFACT = { description: "No such artifact." };
const NOT_A_DRAFT = { description: "The artifact is not a draft." };
const INVALID_DISPUTE = {
  description: `Invalid parameters or body; \`error\` names the field. The reason must not be empty once its surrounding blanks are dropped, and must be at most ${MAX_DISPUTE_REASON_LENGTH} characters.`,
  example: `reason: must be at most ${MAX_DISPUTE_REASON_LENGTH} characters`,
};

export const adminListArtifacts = defineOperation({
  name: "adminListArtifacts",
  summary: "Review queue",
  description: "The workspace's artifacts, newest first, optionally of one status; at most `limit` of them (200 by default).",
  access: { kind: "admin" },
  input: WorkspaceIdParamsSchema.extend(ReviewQueueQuerySchema.shape),
  output: ReviewQueueSchema,
  run: ({ id, status, limit }, { services }) => services.review.queue(id, { status, limit }),
  toWire: (entries) => ({ items: entries.map(toReviewQueueItem) }),
  errors: { not_found: NO_SUCH_WORKSPACE },
});

export const adminValidateArtifact = defineOperation({
  name: "adminValidateArtifact",
  summary: "Validate a draft",
  access: { kind: "admin" },
  input: AdminArtifactIdParamsSchema.extend({ review: ValidateArtifactRequestSchema }),
  output: ReviewResultSchema,
  run: ({ id, review }, { services }) => services.review.validate(id, review.by),
  toWire: (result) => result,
  errors: { not_found: NO_SUCH_ARTIFACT, conflict: NOT_A_DRAFT },
});

export const adminDisputeArtifact = defineOperation({
  name: "adminDisputeArtifact",
  summary: "Dispute a draft, with a reason",
  access: { kind: "admin" },
  input: AdminArtifactIdParamsSchema.extend({ dispute: DisputeArtifactRequestSchema }),
  output: ReviewResultSchema,
  run: ({ id, dispute }, { services }) => services.review.dispute(id, dispute.by, dispute.reason),
  toWire: (result) => result,
  errors: { invalid: INVALID_DISPUTE, not_found: NO_SUCH_ARTIFACT, conflict: NOT_A_DRAFT },
});
