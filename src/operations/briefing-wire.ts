import type { Briefing } from "../services/briefing.service";

/** The wire form of a briefing; REST and MCP answer with exactly this. */
export const toBriefingResponse = (briefing: Briefing) => ({
  workspace: briefing.workspace,
  directives: briefing.directives.map(({ id, name, content }) => ({ id, name, content })),
  directivesAvailable: briefing.directivesAvailable,
  memories: briefing.memories.map((memory) => ({
    type: memory.type,
    statement: memory.statement,
    goingForward: memory.goingForward ?? undefined,
    createdAt: memory.createdAt.getTime(),
  })),
});
