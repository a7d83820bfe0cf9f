import type { Route } from "../http/route";
import { getArtifactRoute } from "./artifacts/get-artifact";
import { pushArtifactRoute } from "./artifacts/push-artifact";
import { searchArtifactsRoute } from "./artifacts/search-artifacts";
import { getBriefingRoute } from "./briefing/get-briefing";
import { getQueryIntelligenceRoute } from "./data-sources/get-query-intelligence";
import { listDataSourcesRoute } from "./data-sources/list-data-sources";
import { listFeedbackRoute } from "./feedback/list-feedback";
import { recallMemoriesRoute } from "./memories/recall-memories";
import { openApiDocumentRoute } from "./openapi/get-openapi-document";
import { getSkillFileRoute } from "./skills/get-skill-file";
import { listSkillsRoute } from "./skills/list-skills";

const API_DESCRIPTION =
  "Lets outside AI agents and integrations work with one workspace: read its briefing, memories, data-source metadata, query intelligence and skills; push draft artifacts; and learn which drafts humans validated or disputed.";

/** Every route under /api/v1. The OpenAPI document is generated from exactly this list. */
export function apiV1Routes(publicBaseUrl?: string): Route[] {
  const routes: Route[] = [
    pushArtifactRoute,
    searchArtifactsRoute,
    getArtifactRoute,
    listFeedbackRoute,
    getBriefingRoute,
    recallMemoriesRoute,
    listDataSourcesRoute,
    getQueryIntelligenceRoute,
    listSkillsRoute,
    getSkillFileRoute,
  ];
  routes.push(
    openApiDocumentRoute("/api/v1/openapi.json", () => routes, {
      title: "Workspace Intelligence API",
      version: "1.0.0",
      description: API_DESCRIPTION,
      serverUrl: publicBaseUrl,
    }),
  );
  return routes;
}
