import { restRoute } from "../../http/rest-route";
import { listDataSources } from "../../operations/data-sources";

export const listDataSourcesRoute = restRoute(listDataSources, {
  method: "get",
  path: "/api/v1/data-sources",
  tags: ["Data sources"],
  conditional: true,
  success: {
    status: 200,
    description: "The data sources.",
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
});
