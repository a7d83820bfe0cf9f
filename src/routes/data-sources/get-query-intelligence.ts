import { ErrorSchema } from "../../contracts/common";
import {
  DataSourceNameParamsSchema,
  QueryIntelligenceQuerySchema,
  QueryIntelligenceResponseSchema,
} from "../../contracts/data-sources";
import { notImplemented } from "../../http/not-implemented";
import { defineRoute } from "../../http/route";

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
  handle: async () => notImplemented("GET /api/v1/data-sources/{name}/query-intelligence"),
});
