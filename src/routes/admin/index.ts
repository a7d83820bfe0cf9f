import type { Route } from "../../http/route";
import { openApiDocumentRoute } from "../openapi/get-openapi-document";
import { createApiKeyRoute, listApiKeysRoute, revokeApiKeyRoute } from "./api-keys";
import { importWorkspaceRoute } from "./import-workspace";
import { indexStateRoute } from "./index-state";
import { reindexWorkspaceRoute } from "./reindex-workspace";
import { disputeArtifactRoute, listReviewQueueRoute, validateArtifactRoute } from "./review";
import { createWorkspaceRoute, updateWorkspaceRoute } from "./workspaces";

/** Every route under /admin/v1: the product side (workspaces, keys, review, import). */
export function adminV1Routes(): Route[] {
  const routes: Route[] = [
    createWorkspaceRoute,
    updateWorkspaceRoute,
    createApiKeyRoute,
    listApiKeysRoute,
    revokeApiKeyRoute,
    listReviewQueueRoute,
    validateArtifactRoute,
    disputeArtifactRoute,
    importWorkspaceRoute,
    reindexWorkspaceRoute,
    indexStateRoute,
  ];
  routes.push(
    openApiDocumentRoute("/admin/v1/openapi.json", () => routes, {
      title: "Workspace Intelligence Admin API",
      version: "1.0.0",
      description: "Product-side operations: workspaces, API keys, review of drafts, and import. Needs the admin token.",
    }, { kind: "admin" }),
  );
  return routes;
}
