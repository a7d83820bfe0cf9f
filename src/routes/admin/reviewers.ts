import { restRoute } from "../../http/rest-route";
import { adminCreateReviewer, adminListReviewers, adminRemoveReviewer } from "../../operations/admin-reviewers";

export const createReviewerRoute = restRoute(adminCreateReviewer, {
  method: "post",
  path: "/admin/v1/workspaces/{id}/reviewers",
  tags: ["Reviewers"],
  body: "reviewer",
  success: { status: 201, description: "The reviewer (never the password)." },
});

export const listReviewersRoute = restRoute(adminListReviewers, {
  method: "get",
  path: "/admin/v1/workspaces/{id}/reviewers",
  tags: ["Reviewers"],
  success: { status: 200, description: "The reviewers, by email." },
});

export const removeReviewerRoute = restRoute(adminRemoveReviewer, {
  method: "delete",
  path: "/admin/v1/workspaces/{id}/reviewers/{reviewerId}",
  tags: ["Reviewers"],
  success: { status: 204, description: "Removed." },
});
