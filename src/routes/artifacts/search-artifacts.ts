import { restRoute } from "../../http/rest-route";
import { searchModeHeaderContract, searchModeHeaders } from "../search-mode-header";
import { searchArtifacts } from "../../operations/artifacts";

export const searchArtifactsRoute = restRoute(searchArtifacts, {
  method: "get",
  path: "/api/v1/artifacts",
  tags: ["Artifacts"],
  success: {
    status: 200,
    description: "Ranked results.",
    example: {
      results: [
        {
          id: "art_7Hc2Wq9LmB4xN1tRz6Ke0p",
          summary: "Enterprise churn doubled in Q3",
          why: "Losing large accounts erodes recurring revenue",
          confidence: 0.8,
          keyFindings: ["Churn 4.1% -> 8.3%", "Concentrated in EMEA"],
          dataSources: [{ type: "database", name: "warehouse" }],
          createdAt: 1763596800000,
          validatedAt: 1763683200000,
          score: 0.87,
        },
      ],
    },
    headers: searchModeHeaderContract,
  },
  responseHeaders: searchModeHeaders,
});
