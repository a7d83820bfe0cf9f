import { ErrorSchema } from "../../contracts/common";
import {
  DataSourceNameParamsSchema,
  QueryIntelligenceQuerySchema,
  QueryIntelligenceResponseSchema,
} from "../../contracts/data-sources";
import { defineRoute } from "../../http/route";
import { toQueryIntelligenceResponse } from "./to-wire";

export const getQueryIntelligenceRoute = defineRoute({
  method: "get",
  path: "/api/v1/data-sources/{name}/query-intelligence",
  operationId: "getQueryIntelligence",
  summary: "Query intelligence of a data source",
  description: "Proven query patterns and past error learnings of the data source, ranked by relevance to the question (at most 10 each).",
  tags: ["Data sources"],
  auth: { kind: "apiKey", scope: "data:read" },
  request: { params: DataSourceNameParamsSchema, query: QueryIntelligenceQuerySchema },
  responses: {
    200: { description: "Patterns and learnings.", schema: QueryIntelligenceResponseSchema },
    404: { description: "No data source with this name in the key's workspace.", schema: ErrorSchema },
  },
  handle: async ({ params, query }, { principal, services }) => ({
    status: 200,
    body: toQueryIntelligenceResponse(
      await services.dataSources.queryIntelligence(principal.workspaceId, params.name, query.question),
    ),
  }),
});
