import type { MemoryService } from "../services/memory.service";

type Recalled = Awaited<ReturnType<MemoryService["recall"]>>;

/** The wire form of recalled memories; REST and MCP answer with exactly this (MCP adds the search mode). */
export const toRecallMemoriesResponse = (recalled: Recalled) => ({
  hits: recalled.hits.map((hit) => ({
    memoryId: hit.id,
    type: hit.type,
    statement: hit.statement,
    goingForward: hit.goingForward ?? undefined,
    context: hit.matchedTerms.length > 0 ? `matched: ${hit.matchedTerms.join(", ")}` : undefined,
  })),
});
