import { restRoute } from "../../http/rest-route";
import {
  adminDisputeArtifact,
  adminDisputeWorkspaceArtifact,
  adminListArtifacts,
  adminValidateArtifact,
  adminValidateWorkspaceArtifact,
} from "../../operations/admin-review";

export const listReviewQueueRoute = restRoute(adminListArtifacts, {
  method: "get",
  path: "/admin/v1/workspaces/{id}/artifacts",
  tags: ["Review"],
  success: { status: 200, description: "The artifacts." },
});

export const validateWorkspaceArtifactRoute = restRoute(adminValidateWorkspaceArtifact, {
  method: "post",
  path: "/admin/v1/workspaces/{workspaceId}/artifacts/{artifactId}/validate",
  tags: ["Review"],
  body: "review",
  success: { status: 200, description: "Validated." },
});

export const disputeWorkspaceArtifactRoute = restRoute(adminDisputeWorkspaceArtifact, {
  method: "post",
  path: "/admin/v1/workspaces/{workspaceId}/artifacts/{artifactId}/dispute",
  tags: ["Review"],
  body: "dispute",
  success: { status: 200, description: "Disputed." },
});

export const validateArtifactRoute = restRoute(adminValidateArtifact, {
  method: "post",
  path: "/admin/v1/artifacts/{id}/validate",
  tags: ["Review"],
  body: "review",
  success: { status: 200, description: "Validated." },
  deprecatedFor: validateWorkspaceArtifactRoute,
});

export const disputeArtifactRoute = restRoute(adminDisputeArtifact, {
  method: "post",
  path: "/admin/v1/artifacts/{id}/dispute",
  tags: ["Review"],
  body: "dispute",
  success: { status: 200, description: "Disputed." },
  deprecatedFor: disputeWorkspaceArtifactRoute,
});
