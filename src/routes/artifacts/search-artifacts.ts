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
  responses: { 200: { description: "Ranked results.", schema: SearchArtifactsResponseSchema } },
  handle: async ({ query }, { principal, services }) => ({
    status: 200,
    body: { results: (await services.artifacts.search(principal, query.query, query.limit)).map(toArtifactSummary) },
  }),
});
