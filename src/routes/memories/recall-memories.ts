import { RecallMemoriesQuerySchema, RecallMemoriesResponseSchema } from "../../contracts/memories";
import { defineRoute } from "../../http/route";
import { toRecallMemoriesResponse } from "./to-wire";

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
  handle: async ({ query }, { principal, services }) => ({
    status: 200,
    body: toRecallMemoriesResponse(await services.memories.recall(principal.workspaceId, query.query)),
  }),
});
