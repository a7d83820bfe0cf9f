import { RecallMemoriesQuerySchema, RecallMemoriesResponseSchema } from "../../contracts/memories";
import { defineRoute } from "../../http/route";

export const recallMemoriesRoute = defineRoute({
  method: "get",
  path: "/api/v1/memories",
  operationId: "recallMemories",
  summary: "Recall memories",
  description:
    "Hybrid search (meaning and words) over the workspace's currently active memories, best first, at most 10. `context` names the query words a memory contains.",
  tags: ["Intelligence"],
  auth: { kind: "apiKey", scope: "intelligence:read" },
  request: { query: RecallMemoriesQuerySchema },
  responses: { 200: { description: "Ranked hits.", schema: RecallMemoriesResponseSchema } },
  handle: async ({ query }, { principal, services }) => {
    const hits = await services.memories.recall(principal.workspaceId, query.query);
    return {
      status: 200,
      body: {
        hits: hits.map((hit) => ({
          memoryId: hit.id,
          type: hit.type,
          statement: hit.statement,
          goingForward: hit.goingForward ?? undefined,
          context: hit.matchedTerms.length > 0 ? `matched: ${hit.matchedTerms.join(", ")}` : undefined,
        })),
      },
    };
  },
});
