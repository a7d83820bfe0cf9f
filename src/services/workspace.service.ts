import { notFound } from "../domain/errors";
import type { WorkspaceRecord, WorkspaceRepository } from "../repositories/workspace.repository";

export const DEFAULT_ORGANIZATION_NAME = "Default";

export function createWorkspaceService({ workspaces }: { workspaces: WorkspaceRepository }) {
  return {
    async create(input: { name: string; organization?: string; context?: string | null }): Promise<WorkspaceRecord> {
      const organization = await workspaces.findOrCreateOrganization(input.organization ?? DEFAULT_ORGANIZATION_NAME);
      return workspaces.create({ organizationId: organization.id, name: input.name, context: input.context ?? null });
    },

    async update(workspaceId: string, input: { name?: string; context?: string | null }): Promise<WorkspaceRecord> {
      const updated = await workspaces.update(workspaceId, input);
      if (!updated) throw notFound(`Workspace ${workspaceId} not found`);
      return updated;
    },

    async get(workspaceId: string): Promise<WorkspaceRecord> {
      const workspace = await workspaces.findById(workspaceId);
      if (!workspace) throw notFound(`Workspace ${workspaceId} not found`);
      return workspace;
    },

    count: () => workspaces.count(),
  };
}

export type WorkspaceService = ReturnType<typeof createWorkspaceService>;

/** The records this service answers with, for adapters, which never import a repository. */
export type { WorkspaceRecord };
