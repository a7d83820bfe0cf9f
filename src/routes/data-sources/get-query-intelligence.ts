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
    200: {
      description: "Patterns and learnings.",
      schema: QueryIntelligenceResponseSchema,
      example: {
        patterns: [
          {
            question: "ARR by fiscal quarter",
            sql: "SELECT fiscal_quarter, sum(arr_eur) FROM arr_snapshots GROUP BY 1 ORDER BY 1",
            resultSummary: "8 quarters, EUR",
            successCount: 14,
            lastUsedAt: 1763596800000,
          },
        ],
        errorLearnings: [
          {
            failedSql: "SELECT quarter FROM arr_snapshots",
            errorMessage: 'column "quarter" does not exist',
            learning: "The column is fiscal_quarter; quarters start in April.",
            createdAt: 1763510400000,
          },
        ],
      },
    },
    404: {
      description: "No data source with this name in the key's workspace.",
      schema: ErrorSchema,
      example: { error: 'No data source named "finance lake" in this workspace', code: "not_found" },
    },
  },
  handle: async ({ params, query }, { principal, services }) => ({
    status: 200,
    body: toQueryIntelligenceResponse(
      await services.dataSources.queryIntelligence(principal.workspaceId, params.name, query.question),
    ),
  }),
});
