import type { Route } from "../../http/route";
import { API_LICENSE, apiContact } from "../api-v1";
import { openApiDocumentRoute } from "../openapi/get-openapi-document";
import { createApiKeyRoute, listApiKeysRoute, revokeApiKeyRoute, revokeWorkspaceApiKeyRoute } from "./api-keys";
import { listConnectedAppsRoute, revokeConnectedAppRoute } from "./connected-apps";
import { deleteArtifactRoute, deleteDataSourceRoute, deleteMemoryRoute, deleteSkillRoute, deleteWorkspaceRoute } from "./deletion";
import { exportWorkspaceRoute } from "./export-workspace";
import { importWorkspaceRoute } from "./import-workspace";
import { indexStateRoute } from "./index-state";
import { nameViolationsRoute } from "./name-violations";
import { reindexWorkspaceRoute } from "./reindex-workspace";
import { isolateWorkspaceRoute } from "./isolate-workspace";
import { createReviewerRoute, listReviewersRoute, removeReviewerRoute } from "./reviewers";
import {
  disputeArtifactRoute,
  disputeWorkspaceArtifactRoute,
  listReviewQueueRoute,
  validateArtifactRoute,
  validateWorkspaceArtifactRoute,
} from "./review";
import { createWorkspaceRoute, updateWorkspaceRoute } from "./workspaces";

/** Every route under /admin/v1: the product side (workspaces, keys, review, import). */
export function adminV1Routes(): Route[] {
  const routes: Route[] = [
    createWorkspaceRoute,
    updateWorkspaceRoute,
    createApiKeyRoute,
    listApiKeysRoute,
    revokeWorkspaceApiKeyRoute,
    revokeApiKeyRoute,
    listConnectedAppsRoute,
    revokeConnectedAppRoute,
    listReviewQueueRoute,
    validateWorkspaceArtifactRoute,
    disputeWorkspaceArtifactRoute,
    validateArtifactRoute,
    disputeArtifactRoute,
    importWorkspaceRoute,
    exportWorkspaceRoute,
    deleteArtifactRoute,
    deleteMemoryRoute,
    deleteSkillRoute,
    deleteDataSourceRoute,
    deleteWorkspaceRoute,
    reindexWorkspaceRoute,
    isolateWorkspaceRoute,
    createReviewerRoute,
    listReviewersRoute,
    removeReviewerRoute,
    indexStateRoute,
    nameViolationsRoute,
  ];
  routes.push(
    openApiDocumentRoute("/admin/v1/openapi.json", () => routes, {
      title: "Workspace Intelligence Admin API",
      version: "1.0.0",
      description: "Product-side operations: workspaces, API keys, review of drafts, import and export, and deletion. Needs the admin token.",
      contact: apiContact(),
      license: API_LICENSE,
      tags: [
        { name: "Workspaces", description: "Create and rename workspaces." },
        { name: "API keys", description: "Issue, list and revoke a workspace's API keys, and list and revoke its connected apps (OAuth grants)." },
        { name: "Review", description: "The review queue: validate or dispute drafts." },
        { name: "Import", description: "Fill a workspace from an import document, or export one as such a document." },
        { name: "Deletion", description: "Delete an artifact, a memory, a skill, a data source, or a whole workspace with everything derived from it." },
        { name: "Reviewers", description: "Reviewer accounts of the review console, per workspace." },
        { name: "Names", description: "Stored skill and data source names that break the grammars of the import." },
        { name: "Search", description: "A workspace's search index: its state per kind of row, and rebuilding it." },
        { name: "Meta", description: "This description of the admin API." },
      ],
    }, { kind: "admin" }),
  );
  return routes;
}
