import { DataSourceNameParamsSchema, DataSourcesResponseSchema, QueryIntelligenceQuerySchema, QueryIntelligenceResponseSchema } from "../contracts/data-sources";
import { z } from "../contracts/zod";
import { toDataSourcesResponse, toQueryIntelligenceResponse } from "./data-sources-wire";
import { defineOperation } from "./operation";

export const listDataSources = defineOperation({
  name: "listDataSources",
  summary: "Data sources",
  description: "Metadata of the workspace's data sources, by name: schema and table annotations, never credentials or connection details.",
  access: { kind: "workspace", scope: "data:read" },
  input: z.object({}),
  output: DataSourcesResponseSchema,
  run: (_input, { principal, services }) => services.dataSources.list(principal.workspaceId),
  toWire: toDataSourcesResponse,
});

export const getQueryIntelligence = defineOperation({
  name: "getQueryIntelligence",
  summary: "Query intelligence of a data source",
  description: "Proven query patterns and past error learnings of the data source, ranked by relevance to the question (at most 10 each).",
  access: { kind: "workspace", scope: "data:read" },
  input: DataSourceNameParamsSchema.extend(QueryIntelligenceQuerySchema.shape),
  output: QueryIntelligenceResponseSchema,
  run: ({ name, question }, { principal, services }) => services.dataSources.queryIntelligence(principal.workspaceId, name, question),
  toWire: toQueryIntelligenceResponse,
  errors: { not_found: { description: "No data source with this name in the key's workspace.", example: 'No data source named "finance lake" in this workspace' } },
});
