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
  responses: {
    200: {
      description: "One page of outcomes.",
      schema: FeedbackResponseSchema,
      example: {
        items: [
          {
            artifactId: "art_7Hc2Wq9LmB4xN1tRz6Ke0p",
            summary: "Enterprise churn doubled in Q3",
            status: "validated",
            validatedAt: 1763683200000,
            validatedBy: "ana@acme.example",
            confidence: 0.8,
            createdBy: "reporting-agent",
            createdAt: 1763596800000,
          },
          {
            artifactId: "art_1Vb8Np3QsD5yM2uTa7Lf9r",
            summary: "Trial signups predict Q4 pipeline",
            status: "disputed",
            disputeReason: "Counts test accounts",
            confidence: 0.6,
            createdBy: "reporting-agent",
            createdAt: 1763510400000,
          },
        ],
        nextCursor: "eyJjIjoxNzYzNTEwNDAwMDAwfQ",
      },
    },
  },
  handle: async ({ query }, { principal, services }) => {
    const page = await services.artifacts.feedback(principal, query);
    return { status: 200, body: { items: page.items.map(toFeedbackItem), nextCursor: page.nextCursor } };
  },
});
