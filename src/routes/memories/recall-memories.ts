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
  responses: {
    200: {
      description: "Ranked hits.",
      schema: RecallMemoriesResponseSchema,
      example: {
        hits: [
          {
            memoryId: "mem_3Kd8Rf1ZpW6nQ0vXb2Hc5j",
            type: "definition",
            statement: "Churn means a subscription not renewed within 30 days of its end date.",
            goingForward: "Use subscriptions.ended_at, not cancelled_at.",
            context: "matched: churn",
          },
        ],
      },
    },
  },
  handle: async ({ query }, { principal, services }) => ({
    status: 200,
    body: toRecallMemoriesResponse(await services.memories.recall(principal.workspaceId, query.query)),
  }),
});
