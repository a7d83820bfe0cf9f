import { FeedbackQuerySchema, FeedbackResponseSchema } from "../../contracts/feedback";
import { notImplemented } from "../../http/not-implemented";
import { defineRoute } from "../../http/route";

export const listFeedbackRoute = defineRoute({
  method: "get",
  path: "/api/v1/feedback",
  operationId: "listFeedback",
  summary: "Validation outcomes of pushed artifacts",
  description:
    "Externally pushed artifacts with their review outcome, newest first. Fewer items than `limit` does not mean the end: only `nextCursor: null` does.",
  tags: ["Feedback"],
  auth: { kind: "apiKey", scope: "artifacts:read" },
  request: { query: FeedbackQuerySchema },
  responses: { 200: { description: "One page of outcomes.", schema: FeedbackResponseSchema } },
  handle: async () => notImplemented("GET /api/v1/feedback"),
});
