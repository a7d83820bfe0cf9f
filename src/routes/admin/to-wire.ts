import type { ApiKeyRecord } from "../../repositories/api-key.repository";
import type { WorkspaceRecord } from "../../repositories/workspace.repository";

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
