import { ErrorSchema } from "../../contracts/common";
import { WorkspaceIdParamsSchema } from "../../contracts/admin";
import { CreateReviewerRequestSchema, ReviewerListSchema, ReviewerParamsSchema, ReviewerSchema } from "../../contracts/reviewers";
import { defineRoute } from "../../http/route";
import type { ReviewerRecord } from "../../repositories/reviewer.repository";

const toReviewer = (reviewer: ReviewerRecord) => ({
  id: reviewer.id,
  email: reviewer.email,
  name: reviewer.name,
  createdAt: reviewer.createdAt.getTime(),
});

export const createReviewerRoute = defineRoute({
  method: "post",
  path: "/admin/v1/workspaces/{id}/reviewers",
  operationId: "adminCreateReviewer",
  summary: "Add a reviewer to a workspace",
  description:
    "Creates a sign-in for the review console at /console. An email that already has an account is added to this workspace too, with the name and password given here.",
  tags: ["Reviewers"],
  auth: { kind: "admin" },
  request: { params: WorkspaceIdParamsSchema, body: CreateReviewerRequestSchema },
  responses: {
    201: { description: "The reviewer (never the password).", schema: ReviewerSchema },
    404: { description: "No such workspace.", schema: ErrorSchema },
  },
  handle: async ({ params, body }, { services }) => ({
    status: 201,
    body: toReviewer(await services.reviewers.add(params.id, body)),
  }),
});

export const listReviewersRoute = defineRoute({
  method: "get",
  path: "/admin/v1/workspaces/{id}/reviewers",
  operationId: "adminListReviewers",
  summary: "List a workspace's reviewers",
  tags: ["Reviewers"],
  auth: { kind: "admin" },
  request: { params: WorkspaceIdParamsSchema },
  responses: {
    200: { description: "The reviewers, by email.", schema: ReviewerListSchema },
    404: { description: "No such workspace.", schema: ErrorSchema },
  },
  handle: async ({ params }, { services }) => ({
    status: 200,
    body: { items: (await services.reviewers.list(params.id)).map(toReviewer) },
  }),
});

export const removeReviewerRoute = defineRoute({
  method: "delete",
  path: "/admin/v1/workspaces/{id}/reviewers/{reviewerId}",
  operationId: "adminRemoveReviewer",
  summary: "Remove a reviewer from a workspace",
  description: "Takes effect on the reviewer's next request. An account left without workspaces is deleted with its sessions.",
  tags: ["Reviewers"],
  auth: { kind: "admin" },
  request: { params: ReviewerParamsSchema },
  responses: {
    204: { description: "Removed." },
    404: { description: "No such workspace, or the reviewer is not one of its reviewers.", schema: ErrorSchema },
  },
  handle: async ({ params }, { services }) => {
    await services.reviewers.remove(params.id, params.reviewerId);
    return { status: 204 };
  },
});
