import type { MemoryService } from "../services/memory.service";

type RecalledMemory = Awaited<ReturnType<MemoryService["recall"]>>[number];

/** The wire form of recalled memories; REST and MCP answer with exactly this. */
export const toRecallMemoriesResponse = (hits: RecalledMemory[]) => ({
  hits: hits.map((hit) => ({
    memoryId: hit.id,
    type: hit.type,
    statement: hit.statement,
    goingForward: hit.goingForward ?? undefined,
    context: hit.matchedTerms.length > 0 ? `matched: ${hit.matchedTerms.join(", ")}` : undefined,
  })),
});
