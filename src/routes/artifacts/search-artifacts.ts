import { SearchArtifactsQuerySchema, SearchArtifactsResponseSchema } from "../../contracts/artifacts";
import { defineRoute } from "../../http/route";
import { toArtifactSummary } from "./to-wire";

export const searchArtifactsRoute = defineRoute({
  method: "get",
  path: "/api/v1/artifacts",
  operationId: "searchArtifacts",
  summary: "Search validated artifacts",
  description: "Semantic search over the validated artifacts of the key's workspace, ranked by relevance.",
  tags: ["Artifacts"],
  auth: { kind: "apiKey", scope: "artifacts:read" },
  request: { query: SearchArtifactsQuerySchema },
  responses: {
    200: {
      description: "Ranked results.",
      schema: SearchArtifactsResponseSchema,
      example: {
        results: [
          {
            id: "art_7Hc2Wq9LmB4xN1tRz6Ke0p",
            summary: "Enterprise churn doubled in Q3",
            why: "Losing large accounts erodes recurring revenue",
            confidence: 0.8,
            keyFindings: ["Churn 4.1% -> 8.3%", "Concentrated in EMEA"],
            dataSources: [{ type: "database", name: "warehouse" }],
            createdAt: 1763596800000,
            validatedAt: 1763683200000,
            score: 0.87,
          },
        ],
      },
    },
  },
  handle: async ({ query }, { principal, services }) => ({
    status: 200,
    body: { results: (await services.artifacts.search(principal, query.query, query.limit)).map(toArtifactSummary) },
  }),
});
