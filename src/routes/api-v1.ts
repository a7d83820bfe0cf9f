import type { DocumentInfo } from "../http/openapi-document";
import type { Route } from "../http/route";
import { getArtifactRoute } from "./artifacts/get-artifact";
import { pushArtifactRoute } from "./artifacts/push-artifact";
import { searchArtifactsRoute } from "./artifacts/search-artifacts";
import { getBriefingRoute } from "./briefing/get-briefing";
import { getQueryIntelligenceRoute } from "./data-sources/get-query-intelligence";
import { listDataSourcesRoute } from "./data-sources/list-data-sources";
import { listFeedbackRoute } from "./feedback/list-feedback";
import { recallMemoriesRoute } from "./memories/recall-memories";
import { PROBE_ROUTES } from "./health/probe-routes";
import { openApiDocumentRoute } from "./openapi/get-openapi-document";
import { getSkillFileRoute } from "./skills/get-skill-file";
import { listSkillsRoute } from "./skills/list-skills";

const API_DESCRIPTION =
  "Lets outside AI agents and integrations work with one workspace: read its briefing, memories, data-source metadata, query intelligence and skills; push draft artifacts; and learn which drafts humans validated or disputed.";

const API_TAGS = [
  { name: "Intelligence", description: "Read before deciding: the workspace briefing and recall of its active memories." },
  { name: "Data sources", description: "Data-source metadata (never credentials) and each source's proven SQL and past errors." },
  { name: "Skills", description: "The workspace's enabled skills and their files." },
  { name: "Artifacts", description: "Push draft artifacts; search and fetch the ones humans validated." },
  { name: "Feedback", description: "Learn which pushed drafts humans validated or disputed, and why." },
  { name: "Meta", description: "This description of the API, and the probes a platform asks whether the service is alive and ready." },
];

/** Who answers partners' questions, and the terms the API is offered under. */
export function apiContact(publicBaseUrl?: string): DocumentInfo["contact"] {
  // OpenAPI wants an absolute URL here; without a public address the reference page is just named.
  const name = "Workspace Intelligence API support";
  return publicBaseUrl ? { name, url: `${publicBaseUrl.replace(/\/+$/, "")}/docs` } : { name };
}
export const API_LICENSE = { name: "Proprietary: use under the terms of your workspace's agreement", identifier: "LicenseRef-Proprietary" };

/** Title, version and description of the /api/v1 document; `servers` falls back to this server (`/`). */
export function apiV1DocumentInfo(publicBaseUrl?: string): DocumentInfo {
  return {
    title: "Workspace Intelligence API",
    version: "1.0.0",
    description: API_DESCRIPTION,
    serverUrl: publicBaseUrl,
    tags: API_TAGS,
    contact: apiContact(publicBaseUrl),
    license: API_LICENSE,
  };
}

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
    openApiDocumentRoute("/api/v1/openapi.json", () => documented(routes), apiV1DocumentInfo(publicBaseUrl)),
  );
  return routes;
}

// The platform probes are served beside /api/v1 (app.ts), and documented with it.
const documented = (routes: Route[]): Route[] => [...routes, ...PROBE_ROUTES];

/** The routes the /api/v1 document describes: every route under /api/v1, and the probes. */
export function apiV1DocumentedRoutes(publicBaseUrl?: string): Route[] {
  return documented(apiV1Routes(publicBaseUrl));
}
