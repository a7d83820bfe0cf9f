import {
  DataSourceNameParamsSchema,
  DataSourcesResponseSchema,
  QueryIntelligenceQuerySchema,
  QueryIntelligenceResponseSchema,
} from "../../contracts/data-sources";
import { z } from "../../contracts/zod";
import { toDataSourcesResponse, toQueryIntelligenceResponse } from "../../routes/data-sources/to-wire";
import { defineTool } from "../mcp-tool";

export const listDataSourcesTool = defineTool({
  name: "list_data_sources",
  title: "Data sources",
  description:
    "Metadata of the workspace's data sources: connector type, status, table schema and table annotations (use cases and gotchas). Never credentials; no query runs. The same answer as GET /api/v1/data-sources.",
  scope: "data:read",
  input: z.object({}),
  output: DataSourcesResponseSchema,
  handle: async (_input, ctx) => toDataSourcesResponse(await ctx.services.dataSources.list(ctx.principal.workspaceId)),
});

export const getQueryIntelligenceTool = defineTool({
  name: "get_query_intelligence",
  title: "Query intelligence of a data source",
  description:
    "Before writing SQL: proven query patterns and past error learnings of one data source, ranked by relevance to the question (at most 10 each). The same answer as GET /api/v1/data-sources/{name}/query-intelligence.",
  scope: "data:read",
  input: z.object({
    name: DataSourceNameParamsSchema.shape.name.describe("The data source name, as list_data_sources shows it."),
    question: QueryIntelligenceQuerySchema.shape.question.describe("What you want to compute, in natural language."),
  }),
  output: QueryIntelligenceResponseSchema,
  handle: async ({ name, question }, ctx) =>
    toQueryIntelligenceResponse(await ctx.services.dataSources.queryIntelligence(ctx.principal.workspaceId, name, question)),
});
