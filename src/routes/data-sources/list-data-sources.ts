import { DataSourcesResponseSchema } from "../../contracts/data-sources";
import { defineRoute } from "../../http/route";
import { toDataSourcesResponse } from "./to-wire";

export const listDataSourcesRoute = defineRoute({
  method: "get",
  path: "/api/v1/data-sources",
  operationId: "listDataSources",
  summary: "Data sources",
  description: "Metadata of the workspace's data sources, by name: schema and table annotations, never credentials or connection details.",
  tags: ["Data sources"],
  auth: { kind: "apiKey", scope: "data:read" },
  responses: { 200: { description: "The data sources.", schema: DataSourcesResponseSchema } },
  handle: async (_input, { principal, services }) => ({
    status: 200,
    body: toDataSourcesResponse(await services.dataSources.list(principal.workspaceId)),
  }),
});
