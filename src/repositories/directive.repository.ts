import type { DbTx } from "../db/database";
import { newId } from "../lib/ids";
import { byCodePoints } from "../lib/code-point-order";

export interface DirectiveRecord {
  id: string;
  name: string;
  content: string;
}

export function createDirectiveRepository(db: DbTx) {
  return {
    /** The workspace's directives by name, so that the briefing reads the same on every call. */
    async listByWorkspace(workspaceId: string): Promise<DirectiveRecord[]> {
      const directives = await db.directive.findMany({ where: { workspaceId }, select: { id: true, name: true, content: true } });
      return directives.sort(byCodePoints((directive) => directive.name));
    },

    async upsertByName(workspaceId: string, directive: { name: string; content: string }): Promise<void> {
      await db.directive.upsert({
        where: { workspaceId_name: { workspaceId, name: directive.name } },
        create: { id: newId("dir"), workspaceId, ...directive },
        update: { content: directive.content },
      });
    },
  };
}

export type DirectiveRepository = ReturnType<typeof createDirectiveRepository>;
