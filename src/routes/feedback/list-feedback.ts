import { FeedbackQuerySchema, FeedbackResponseSchema } from "../../contracts/feedback";
import { defineRoute } from "../../http/route";
import { toFeedbackItem } from "../artifacts/to-wire";

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
  handle: async ({ query }, { principal, services }) => {
    const page = await services.artifacts.feedback(principal, query);
    return { status: 200, body: { items: page.items.map(toFeedbackItem), nextCursor: page.nextCursor } };
  },
});
