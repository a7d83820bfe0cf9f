import { adminDeleteArtifact, adminDeleteDataSource, adminDeleteMemory, adminDeleteSkill, adminDeleteWorkspace } from "./admin-deletion";
import { adminExportWorkspace } from "./admin-export";
import { adminImportWorkspace } from "./admin-import";
import { adminListConnectedApps, adminRevokeConnectedApp } from "./admin-connected-apps";
import { adminCheckNames } from "./admin-names";
import { adminCreateApiKey, adminListApiKeys, adminRevokeApiKey, adminRevokeWorkspaceApiKey } from "./admin-keys";
import {
  adminDisputeArtifact,
  adminDisputeWorkspaceArtifact,
  adminListArtifacts,
  adminValidateArtifact,
  adminValidateWorkspaceArtifact,
} from "./admin-review";
import { adminCreateReviewer, adminListReviewers, adminRemoveReviewer } from "./admin-reviewers";
import { adminGetIndexState, adminReindexWorkspace } from "./admin-search";
import { adminIsolateWorkspace } from "./admin-placement";
import { adminCreateWorkspace, adminUpdateWorkspace } from "./admin-workspaces";
import { fetchArtifactForConnector, getArtifact, listFeedback, pushArtifact, searchArtifacts, searchArtifactsForConnector } from "./artifacts";
import { getQueryIntelligence, listDataSources } from "./data-sources";
import { getBriefing, recallMemories } from "./intelligence";
import type { AnyOperation } from "./operation";
import { getSkillFile, listSkills } from "./skills";

/**
 * Every operation of the service, declared once each. REST routes (`src/routes/`), MCP tools
 * (`src/mcp/tools.ts`) and the console are adapters over these; a test checks that each adapter
 * takes its inputs' types and limits from here.
 */
export const OPERATIONS: readonly AnyOperation[] = [
  pushArtifact,
  searchArtifacts,
  getArtifact,
  listFeedback,
  getBriefing,
  recallMemories,
  listDataSources,
  getQueryIntelligence,
  listSkills,
  getSkillFile,
  // Only MCP answers in the connector shape.
  searchArtifactsForConnector,
  fetchArtifactForConnector,
  // The admin API; the review console runs the review and key operations for its reviewers.
  adminCreateWorkspace,
  adminUpdateWorkspace,
  adminCreateApiKey,
  adminListApiKeys,
  adminRevokeWorkspaceApiKey,
  adminListConnectedApps,
  adminRevokeConnectedApp,
  adminListArtifacts,
  adminValidateWorkspaceArtifact,
  adminDisputeWorkspaceArtifact,
  adminImportWorkspace,
  adminExportWorkspace,
  adminDeleteArtifact,
  adminDeleteMemory,
  adminDeleteSkill,
  adminDeleteDataSource,
  adminDeleteWorkspace,
  adminReindexWorkspace,
  adminIsolateWorkspace,
  adminCreateReviewer,
  adminListReviewers,
  adminRemoveReviewer,
  adminGetIndexState,
  adminCheckNames,
  // Deprecated paths of the admin API that name no workspace: each finds it, then runs the scoped operation above.
  adminRevokeApiKey,
  adminValidateArtifact,
  adminDisputeArtifact,
];
