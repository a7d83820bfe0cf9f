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
  conditional: true,
  responses: {
    200: {
      description: "The data sources.",
      schema: DataSourcesResponseSchema,
      example: {
        items: [
          {
            name: "warehouse",
            connectorType: "postgres",
            status: "connected",
            schema: [{ tableName: "subscriptions", columns: [{ columnName: "ended_at", dataType: "timestamp" }] }],
            tableAnnotations: [
              {
                tableName: "subscriptions",
                description: "One row per subscription term.",
                useCases: ["churn", "renewals"],
                gotchas: ["Trial subscriptions have plan = 'trial': exclude them from churn."],
              },
            ],
            createdAt: 1763596800000,
          },
        ],
      },
    },
  },
  handle: async (_input, { principal, services }) => ({
    status: 200,
    body: toDataSourcesResponse(await services.dataSources.list(principal.workspaceId)),
  }),
});
