import { notFound } from "../domain/errors";
import type { Logger } from "../lib/logger";
import type { DirectiveRecord, DirectiveRepository } from "../repositories/directive.repository";
import type { MemoryRecord, MemoryRepository } from "../repositories/memory.repository";
import type { WorkspaceRecord, WorkspaceRepository } from "../repositories/workspace.repository";

/** The contract's cap on memories in a briefing. */
export const BRIEFING_MEMORY_LIMIT = 200;

export interface Briefing {
  workspace: Pick<WorkspaceRecord, "name" | "context">;
  directives: DirectiveRecord[];
  directivesAvailable: boolean;
  memories: MemoryRecord[];
}

export function createBriefingService(deps: {
  workspaces: Pick<WorkspaceRepository, "findById">;
  directives: Pick<DirectiveRepository, "listByWorkspace">;
  memories: Pick<MemoryRepository, "listActiveOfTypes">;
  logger: Logger;
}) {
  /** Directives, or undefined when the store cannot be read: the briefing is still worth having without them. */
  async function readDirectives(workspaceId: string): Promise<DirectiveRecord[] | undefined> {
    try {
      return await deps.directives.listByWorkspace(workspaceId);
    } catch (error) {
      deps.logger.warn({ err: error, workspaceId }, "directive store unavailable; briefing without directives");
      return undefined;
    }
  }

  return {
    async get(workspaceId: string): Promise<Briefing> {
      const workspace = await deps.workspaces.findById(workspaceId);
      if (!workspace) throw notFound(`Workspace ${workspaceId} no longer exists`);
      const [directives, memories] = await Promise.all([
        readDirectives(workspaceId),
        deps.memories.listActiveOfTypes(workspaceId, ["rule", "definition"], BRIEFING_MEMORY_LIMIT),
      ]);
      return {
        workspace: { name: workspace.name, context: workspace.context },
        directives: directives ?? [],
        directivesAvailable: directives !== undefined,
        memories,
      };
    },
  };
}

export type BriefingService = ReturnType<typeof createBriefingService>;
