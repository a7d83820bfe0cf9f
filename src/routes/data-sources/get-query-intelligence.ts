import { restRoute } from "../../http/rest-route";
import { searchModeHeaderContract, searchModeHeaders } from "../search-mode-header";
import { getQueryIntelligence } from "../../operations/data-sources";

export const getQueryIntelligenceRoute = restRoute(getQueryIntelligence, {
  method: "get",
  path: "/api/v1/data-sources/{name}/query-intelligence",
  tags: ["Data sources"],
  success: {
    status: 200,
    description: "Patterns and learnings.",
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
    headers: searchModeHeaderContract,
  },
  responseHeaders: searchModeHeaders,
});
