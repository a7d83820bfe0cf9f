import type { Scope } from "../../src/auth/scopes";

/**
 * The /api/v1 endpoints that need a key, with the scope DESIGN.md assigns to each and the status
 * the call answers once authentication lets it through (in an empty workspace, without a body).
 */
export const PROTECTED_ENDPOINTS: Array<{ method: "get" | "post"; path: string; route: string; scope: Scope; allowed: number }> = [
  { method: "post", path: "/api/v1/artifacts", route: "/api/v1/artifacts", scope: "artifacts:write", allowed: 400 },
  { method: "get", path: "/api/v1/artifacts?query=x", route: "/api/v1/artifacts", scope: "artifacts:read", allowed: 200 },
  { method: "get", path: "/api/v1/artifacts/art_x", route: "/api/v1/artifacts/{id}", scope: "artifacts:read", allowed: 404 },
  { method: "get", path: "/api/v1/feedback", route: "/api/v1/feedback", scope: "artifacts:read", allowed: 200 },
  { method: "get", path: "/api/v1/briefing", route: "/api/v1/briefing", scope: "intelligence:read", allowed: 200 },
  { method: "get", path: "/api/v1/memories?query=x", route: "/api/v1/memories", scope: "intelligence:read", allowed: 200 },
  { method: "get", path: "/api/v1/data-sources", route: "/api/v1/data-sources", scope: "data:read", allowed: 200 },
  {
    method: "get",
    path: "/api/v1/data-sources/warehouse/query-intelligence?question=x",
    route: "/api/v1/data-sources/{name}/query-intelligence",
    scope: "data:read",
    allowed: 404,
  },
  { method: "get", path: "/api/v1/skills", route: "/api/v1/skills", scope: "skills:read", allowed: 200 },
  { method: "get", path: "/api/v1/skills/sql/files?path=SKILL.md", route: "/api/v1/skills/{name}/files", scope: "skills:read", allowed: 404 },
];
