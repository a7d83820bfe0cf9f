import { RecallMemoriesQuerySchema, RecallMemoriesResponseSchema } from "../../contracts/memories";
import { notImplemented } from "../../http/not-implemented";
import { defineRoute } from "../../http/route";

export const recallMemoriesRoute = defineRoute({
  method: "get",
  path: "/api/v1/memories",
  operationId: "recallMemories",
  summary: "Recall memories",
  description: "Semantic search over the workspace's currently active memories, ranked.",
  tags: ["Intelligence"],
  auth: { kind: "apiKey", scope: "intelligence:read" },
  request: { query: RecallMemoriesQuerySchema },
  responses: { 200: { description: "Ranked hits.", schema: RecallMemoriesResponseSchema } },
  handle: async () => notImplemented("GET /api/v1/memories"),
});
