import {
  AdminArtifactIdParamsSchema,
  DisputeArtifactRequestSchema,
  MAX_DISPUTE_REASON_LENGTH,
  ReviewQueueQuerySchema,
  ReviewQueueSchema,
  ReviewResultSchema,
  ValidateArtifactRequestSchema,
  WorkspaceArtifactParamsSchema,
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
const NO_SUCH_ARTIFACT_HERE = {
  description: "No such artifact in this workspace (an artifact of another workspace is not found either), or no such workspace.",
  example: "Artifact art_7Hc2Wq9LmB4xN1tRz6Ke0p not found",
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

export const adminValidateWorkspaceArtifact = defineOperation({
  name: "adminValidateWorkspaceArtifact",
  summary: "Validate a draft",
  access: { kind: "admin" },
  input: WorkspaceArtifactParamsSchema.extend({ review: ValidateArtifactRequestSchema }),
  output: ReviewResultSchema,
  run: ({ workspaceId, artifactId, review }, { services }) => services.review.validate(workspaceId, artifactId, review.by),
  errors: { not_found: NO_SUCH_ARTIFACT_HERE, conflict: NOT_A_DRAFT },
});

export const adminDisputeWorkspaceArtifact = defineOperation({
  name: "adminDisputeWorkspaceArtifact",
  summary: "Dispute a draft, with a reason",
  access: { kind: "admin" },
  input: WorkspaceArtifactParamsSchema.extend({ dispute: DisputeArtifactRequestSchema }),
  output: ReviewResultSchema,
  run: ({ workspaceId, artifactId, dispute }, { services }) => services.review.dispute(workspaceId, artifactId, dispute.by, dispute.reason),
  errors: { invalid: INVALID_DISPUTE, not_found: NO_SUCH_ARTIFACT_HERE, conflict: NOT_A_DRAFT },
});

// The older paths name the artifact alone: they find its workspace, then review there.
const NAMES_NO_WORKSPACE = "Names no workspace: the artifact's is looked up first.";

export const adminValidateArtifact = defineOperation({
  name: "adminValidateArtifact",
  summary: adminValidateWorkspaceArtifact.summary,
  description: NAMES_NO_WORKSPACE,
  access: { kind: "admin" },
  input: AdminArtifactIdParamsSchema.extend({ review: ValidateArtifactRequestSchema }),
  output: ReviewResultSchema,
  run: async ({ id, review }, ctx) => adminValidateWorkspaceArtifact.run({ workspaceId: await ctx.services.review.workspaceOf(id), artifactId: id, review }, ctx),
  errors: { not_found: NO_SUCH_ARTIFACT, conflict: NOT_A_DRAFT },
});

export const adminDisputeArtifact = defineOperation({
  name: "adminDisputeArtifact",
  summary: adminDisputeWorkspaceArtifact.summary,
  description: NAMES_NO_WORKSPACE,
  access: { kind: "admin" },
  input: AdminArtifactIdParamsSchema.extend({ dispute: DisputeArtifactRequestSchema }),
  output: ReviewResultSchema,
  run: async ({ id, dispute }, ctx) => adminDisputeWorkspaceArtifact.run({ workspaceId: await ctx.services.review.workspaceOf(id), artifactId: id, dispute }, ctx),
  errors: { invalid: INVALID_DISPUTE, not_found: NO_SUCH_ARTIFACT, conflict: NOT_A_DRAFT },
});
