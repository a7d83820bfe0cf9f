import { DataSourcesResponseSchema } from "../../contracts/data-sources";
import { notImplemented } from "../../http/not-implemented";
import { defineRoute } from "../../http/route";

export const listDataSourcesRoute = defineRoute({
  method: "get",
  path: "/api/v1/data-sources",
  operationId: "listDataSources",
  summary: "Data sources",
  description: "Metadata of the workspace's data sources: schema and table annotations, never credentials.",
  tags: ["Data sources"],
  auth: { kind: "apiKey", scope: "data:read" },
  responses: { 200: { description: "The data sources.", schema: DataSourcesResponseSchema } },
  handle: async () => notImplemented("GET /api/v1/data-sources"),
});
