import type express from "express";
import request from "supertest";
import { createTestApp, type TestApp } from "../support/test-app";
import { PROTECTED_ENDPOINTS } from "../support/api-endpoints";

type Operation = {
  security?: unknown[];
  description?: string;
  "x-required-scopes"?: string[];
  responses: Record<string, unknown>;
  parameters?: Array<{ name: string; in: string; required?: boolean }>;
};
type OpenApiDocument = {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
  webhooks: Record<string, unknown>;
};
type Layer = { route?: { path: string; methods: Record<string, boolean> }; handle?: { stack?: Layer[] } };

let t: TestApp;
let doc: OpenApiDocument;

beforeAll(async () => {
  t = await createTestApp();
  doc = (await request(t.app).get("/api/v1/openapi.json").expect(200)).body;
});
afterAll(() => t.close());

async function validateOpenApi(document: unknown) {
  const { Validator } = await import("@seriousme/openapi-schema-validator");
  return new Validator().validate(structuredClone(document) as Parameters<InstanceType<typeof Validator>["validate"]>[0]);
}

/** The platform probes, served beside /api/v1 and documented with it. */
const PROBES = new Set(["/livez", "/readyz", "/healthz"]);

/** "METHOD /path/{param}" of every route Express serves under /api/v1 and of the probes, read from its router stack. */
function expressRoutes(app: express.Express): string[] {
  const found: string[] = [];
  const visit = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const method of Object.keys(layer.route.methods)) {
          if (method === "_all") continue;
          found.push(`${method.toUpperCase()} ${layer.route.path.replace(/:(\w+)/g, "{$1}")}`);
        }
      } else if (layer.handle?.stack) {
        visit(layer.handle.stack);
      }
    }
  };
  visit((app as unknown as { router: { stack: Layer[] } }).router.stack);
  return found.filter((route) => route.split(" ")[1]!.startsWith("/api/v1") || PROBES.has(route.split(" ")[1]!));
}

describe("GET /api/v1/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document according to an independent validator", async () => {
    const result = await validateOpenApi(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("declares OpenAPI 3.1.0 and info.version 1.0.0", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.0.0");
  });

  it("has an empty webhooks section", () => {
    expect(doc.webhooks).toEqual({});
  });

  it("declares the bearer security scheme", () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
  });

  it("documents every route Express serves under /api/v1 and the probes, and nothing else", () => {
    const documented = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const served = expressRoutes(t.app);
    expect(served.length).toBeGreaterThanOrEqual(11);
    expect(documented.sort()).toEqual(served.sort());
  });

  it.each(PROTECTED_ENDPOINTS.map((e) => [`${e.method.toUpperCase()} ${e.route}`, e] as const))(
    "states the scope of %s in x-required-scopes and its description, and requires the bearer key",
    (_name, endpoint) => {
      const operation = doc.paths[endpoint.route]![endpoint.method]!;
      expect(operation["x-required-scopes"]).toEqual([endpoint.scope]);
      expect(operation.description).toContain(`Required scope: \`${endpoint.scope}\``);
      expect(operation.security).toEqual([{ bearerAuth: [] }]);
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(["401", "403"]));
    },
  );

  it("marks the document itself as public", () => {
    expect(doc.paths["/api/v1/openapi.json"]!.get!.security).toEqual([]);
  });

  it.each([
    ["post", "/api/v1/artifacts", ["201", "400", "401", "403", "422"]],
    ["get", "/api/v1/artifacts", ["200", "400", "401", "403"]],
    ["get", "/api/v1/artifacts/{id}", ["200", "401", "403", "404"]],
    ["get", "/api/v1/feedback", ["200", "400", "401", "403"]],
    ["get", "/api/v1/briefing", ["200", "401", "403", "404"]],
    ["get", "/api/v1/memories", ["200", "400", "401", "403"]],
    ["get", "/api/v1/data-sources", ["200", "401", "403"]],
    ["get", "/api/v1/data-sources/{name}/query-intelligence", ["200", "400", "401", "403", "404"]],
    ["get", "/api/v1/skills", ["200", "401", "403"]],
    ["get", "/api/v1/skills/{name}/files", ["200", "400", "401", "403", "404", "502"]],
  ] as const)("documents the status codes of %s %s that the contract lists", (method, path, codes) => {
    expect(Object.keys(doc.paths[path]![method]!.responses)).toEqual(expect.arrayContaining([...codes]));
  });

  it.each([
    "CreateArtifactRequest",
    "CreateArtifactResponse",
    "ArtifactDataSource",
    "ArtifactRecommendation",
    "ArtifactCodeExecuted",
    "ArtifactSummary",
    "ArtifactDetail",
    "FeedbackItem",
    "FeedbackResponse",
    "BriefingResponse",
    "BriefingDirective",
    "BriefingMemory",
    "RecallMemoriesResponse",
    "MemoryHit",
    "DataSourcesResponse",
    "DataSourceItem",
    "TableAnnotation",
    "QueryIntelligenceResponse",
    "QueryPattern",
    "ErrorLearning",
    "SkillsResponse",
    "SkillItem",
    "SkillFileEntry",
    "SkillFileResponse",
    "Error",
  ])("has the %s schema of the contract", (name) => {
    expect(doc.components.schemas[name]).toBeDefined();
  });

  it("documents the Idempotency-Key header of the push", () => {
    const parameters = doc.paths["/api/v1/artifacts"]!.post!.parameters ?? [];
    expect(parameters).toContainEqual(expect.objectContaining({ name: "idempotency-key", in: "header" }));
  });

  it("documents the search's optional filters: the contract's timestamps, a data source name, a least confidence", () => {
    const parameters = (doc.paths["/api/v1/artifacts"]!.get!.parameters ?? []) as Array<{ name: string; in: string; required?: boolean; schema: unknown; description?: string }>;
    const byName = new Map(parameters.map((parameter) => [parameter.name, parameter]));
    expect(parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name)).toEqual(["query"]);
    for (const name of ["createdAfter", "createdBefore", "validatedAfter", "validatedBefore"]) {
      expect(byName.get(name)).toMatchObject({ in: "query", required: false, schema: { type: "integer" } });
      expect(byName.get(name)!.description).toMatch(/inclusive.*milliseconds since the Unix epoch/);
    }
    expect(byName.get("dataSource")).toMatchObject({ in: "query", required: false, schema: { type: "string", minLength: 1, maxLength: 500 } });
    expect(byName.get("minConfidence")).toMatchObject({ in: "query", required: false, schema: { type: "number", minimum: 0, maximum: 1 } });
  });

  it("renders confidence as a number from 0 to 1 and requires the four fields of the contract", () => {
    const schema = doc.components.schemas.CreateArtifactRequest as { properties: Record<string, unknown>; required: string[] };
    expect(schema.properties.confidence).toMatchObject({ type: "number", minimum: 0, maximum: 1 });
    expect([...schema.required].sort()).toEqual(["confidence", "confidenceExplanation", "summary", "why"]);
  });

  it("does not list the admin API", () => {
    expect(Object.keys(doc.paths).some((path) => path.startsWith("/admin"))).toBe(false);
  });
});

describe("GET /admin/v1/openapi.json", () => {
  it("answers 401 without the admin token", async () => {
    await request(t.app).get("/admin/v1/openapi.json").expect(401);
  });

  it("is a valid OpenAPI 3.1 document of the admin API", async () => {
    const res = await request(t.app).get("/admin/v1/openapi.json").set("Authorization", `Bearer ${t.adminToken}`).expect(200);
    expect((await validateOpenApi(res.body)).valid).toBe(true);
    expect(Object.keys(res.body.paths)).toContain("/admin/v1/workspaces");
  });

  it.each([
    ["delete", "/admin/v1/keys/{id}", "DELETE /admin/v1/workspaces/{workspaceId}/keys/{keyId}"],
    ["post", "/admin/v1/artifacts/{id}/validate", "POST /admin/v1/workspaces/{workspaceId}/artifacts/{artifactId}/validate"],
    ["post", "/admin/v1/artifacts/{id}/dispute", "POST /admin/v1/workspaces/{workspaceId}/artifacts/{artifactId}/dispute"],
  ] as const)("marks %s %s deprecated and points to %s, which it documents", async (method, path, successor) => {
    const admin = (await request(t.app).get("/admin/v1/openapi.json").set("Authorization", `Bearer ${t.adminToken}`).expect(200)).body as OpenApiDocument;
    const operation = admin.paths[path]![method] as Operation & { deprecated?: boolean };
    expect(operation.deprecated).toBe(true);
    expect(operation.description).toMatch(new RegExp(`^Deprecated: use \`${successor.replace(/[{}]/g, "\\$&")}\``));
    const [successorMethod, successorPath] = successor.split(" ") as [string, string];
    const scoped = admin.paths[successorPath]![successorMethod.toLowerCase()] as Operation & { deprecated?: boolean };
    expect(scoped.deprecated).toBeUndefined();
    expect(scoped.parameters?.map((parameter) => parameter.name)).toEqual(expect.arrayContaining(["workspaceId"]));
    expect(Object.keys(scoped.responses)).toEqual(expect.arrayContaining(["401", "404"]));
  });

  it("documents the review queue's limit and the 400 for a dispute reason over 2,000 characters", async () => {
    const admin = (await request(t.app).get("/admin/v1/openapi.json").set("Authorization", `Bearer ${t.adminToken}`).expect(200)).body as OpenApiDocument;
    const queue = admin.paths["/admin/v1/workspaces/{id}/artifacts"]!.get!;
    expect(queue.parameters).toContainEqual(expect.objectContaining({ name: "limit", in: "query", schema: expect.objectContaining({ minimum: 1, maximum: 200, default: 200 }) }));
    const dispute = admin.components.schemas.AdminDisputeArtifactRequest as { properties: { reason: Record<string, unknown> } };
    expect(dispute.properties.reason).toMatchObject({ type: "string", minLength: 1, maxLength: 2000 });
    for (const path of ["/admin/v1/workspaces/{workspaceId}/artifacts/{artifactId}/dispute", "/admin/v1/artifacts/{id}/dispute"]) {
      expect(JSON.stringify(admin.paths[path]!.post!.responses["400"])).toContain("reason: must be at most 2000 characters");
    }
  });
});
