import { WorkspaceIdParamsSchema } from "../contracts/admin";
import { CreateReviewerRequestSchema, ReviewerListSchema, ReviewerParamsSchema, ReviewerSchema } from "../contracts/reviewers";
import { toReviewer } from "./admin-wire";
import { NO_SUCH_WORKSPACE } from "./admin-workspaces";
import { defineOperation, NO_CONTENT } from "./operation";

export const adminCreateReviewer = defineOperation({
  name: "adminCreateReviewer",
  summary: "Add a reviewer to a workspace",
  description:
    "Creates a sign-in for the review console at /console. An email that already has an account is added to this workspace too, with the name and password given here.",
  access: { kind: "admin" },
  input: WorkspaceIdParamsSchema.extend({ reviewer: CreateReviewerRequestSchema }),
  output: ReviewerSchema,
  run: ({ id, reviewer }, { services }) => services.reviewers.add(id, reviewer),
  toWire: toReviewer,
  errors: { not_found: NO_SUCH_WORKSPACE },
});

export const adminListReviewers = defineOperation({
  name: "adminListReviewers",
  summary: "List a workspace's reviewers",
  access: { kind: "admin" },
  input: WorkspaceIdParamsSchema,
  output: ReviewerListSchema,
  run: ({ id }, { services }) => services.reviewers.list(id),
  toWire: (reviewers) => ({ items: reviewers.map(toReviewer) }),
  errors: { not_found: NO_SUCH_WORKSPACE },
});

export const adminRemoveReviewer = defineOperation({
  name: "adminRemoveReviewer",
  summary: "Remove a reviewer from a workspace",
  description:
    "Takes effect on the reviewer's next request. An account left without workspaces is deleted with its sessions. The apps the reviewer connected to this workspace (OAuth grants) are revoked with it.",
  access: { kind: "admin" },
  input: ReviewerParamsSchema,
  output: NO_CONTENT,
  // A grant reads what its approver could read: it goes when their access to the workspace goes.
  // First, while the account still exists (removing its last workspace deletes it).
  run: async ({ id, reviewerId }, { services }) => {
    await services.connectedApps.revokeGrantedBy(id, reviewerId);
    await services.reviewers.remove(id, reviewerId);
  },
  errors: { not_found: { description: "No such workspace, or the reviewer is not one of its reviewers." } },
});
