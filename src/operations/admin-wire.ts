import type { ApiKeyRecord } from "../services/api-key.service";
import type { ConnectedAppRecord } from "../services/connected-app.service";
import type { ReviewerRecord } from "../services/reviewer.service";
import type { WorkspaceRecord } from "../services/workspace.service";

export const toWorkspace = (workspace: WorkspaceRecord) => ({
  id: workspace.id,
  name: workspace.name,
  organizationId: workspace.organizationId,
  context: workspace.context,
});

export const toApiKey = (key: ApiKeyRecord) => ({
  id: key.id,
  name: key.name,
  scopes: key.scopes,
  createdAt: key.createdAt.getTime(),
  lastUsedAt: key.lastUsedAt?.getTime() ?? null,
  revokedAt: key.revokedAt?.getTime() ?? null,
});

export const toConnectedApp = (app: ConnectedAppRecord) => ({
  id: app.id,
  clientId: app.clientId,
  clientName: app.clientName,
  redirectHost: app.redirectHost,
  grantedBy: app.grantedBy,
  scopes: app.scopes,
  createdAt: app.createdAt.getTime(),
  lastUsedAt: app.lastUsedAt?.getTime() ?? null,
  revokedAt: app.revokedAt?.getTime() ?? null,
});

export const toReviewer = (reviewer: ReviewerRecord) => ({
  id: reviewer.id,
  email: reviewer.email,
  name: reviewer.name,
  createdAt: reviewer.createdAt.getTime(),
});
