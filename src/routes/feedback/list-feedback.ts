import { restRoute } from "../../http/rest-route";
import { listFeedback } from "../../operations/artifacts";

export const listFeedbackRoute = restRoute(listFeedback, {
  method: "get",
  path: "/api/v1/feedback",
  tags: ["Feedback"],
  success: {
    status: 200,
    description: "One page of outcomes.",
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
});
