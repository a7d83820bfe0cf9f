import { restRoute } from "../../http/rest-route";
import { adminDeleteArtifact, adminDeleteDataSource, adminDeleteMemory, adminDeleteSkill, adminDeleteWorkspace } from "../../operations/admin-deletion";

export const deleteArtifactRoute = restRoute(adminDeleteArtifact, {
  method: "delete",
  path: "/admin/v1/workspaces/{workspaceId}/artifacts/{artifactId}",
  tags: ["Deletion"],
  success: { status: 204, description: "Deleted." },
});

export const deleteMemoryRoute = restRoute(adminDeleteMemory, {
  method: "delete",
  path: "/admin/v1/workspaces/{workspaceId}/memories/{memoryId}",
  tags: ["Deletion"],
  success: { status: 204, description: "Deleted." },
});

export const deleteSkillRoute = restRoute(adminDeleteSkill, {
  method: "delete",
  path: "/admin/v1/workspaces/{workspaceId}/skills/{name}",
  tags: ["Deletion"],
  success: { status: 204, description: "Deleted." },
});

export const deleteDataSourceRoute = restRoute(adminDeleteDataSource, {
  method: "delete",
  path: "/admin/v1/workspaces/{workspaceId}/data-sources/{name}",
  tags: ["Deletion"],
  success: { status: 204, description: "Deleted." },
});

export const deleteWorkspaceRoute = restRoute(adminDeleteWorkspace, {
  method: "delete",
  path: "/admin/v1/workspaces/{id}",
  tags: ["Deletion"],
  success: {
    status: 200,
    description: "Deleted: what was removed.",
    example: {
      workspaceId: "ws_4Qm9ZtV1c8Hb2LxP0aRk7e",
      rows: { artifacts: 1200, memories: 24, api_keys: 2, workspaces: 1 },
      indexesDropped: [],
      blobsRemoved: 6,
    },
  },
});
