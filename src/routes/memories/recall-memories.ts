import { restRoute } from "../../http/rest-route";
import { searchModeHeaderContract, searchModeHeaders } from "../search-mode-header";
import { recallMemories } from "../../operations/intelligence";

export const recallMemoriesRoute = restRoute(recallMemories, {
  method: "get",
  path: "/api/v1/memories",
  tags: ["Intelligence"],
  success: {
    status: 200,
    description: "Ranked hits.",
    example: {
      hits: [
        {
          memoryId: "mem_3Kd8Rf1ZpW6nQ0vXb2Hc5j",
          type: "definition",
          statement: "Churn means a subscription not renewed within 30 days of its end date.",
          goingForward: "Use subscriptions.ended_at, not cancelled_at.",
          context: "matched: churn",
        },
      ],
    },
    headers: searchModeHeaderContract,
  },
  responseHeaders: searchModeHeaders,
});
