import { buildOpenApiDocument } from "../../src/http/openapi-document";
import { apiV1DocumentInfo, apiV1DocumentedRoutes, apiV1Routes } from "../../src/routes/api-v1";

type Parameter = { name: string; in: string; example?: unknown; schema?: { example?: unknown } };
type MediaType = { example?: unknown };
type Response = { headers?: Record<string, unknown>; content?: Record<string, MediaType> };
type Operation = {
  operationId: string;
  summary?: string;
  tags: string[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, Response>;
};

const doc = buildOpenApiDocument(apiV1DocumentedRoutes(), apiV1DocumentInfo()) as unknown as {
  info: { license?: { name: string }; contact?: { name: string; url?: string } };
  servers?: Array<{ url: string }>;
  tags?: Array<{ name: string; description?: string }>;
  paths: Record<string, Record<string, Operation>>;
};
const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => [`${method.toUpperCase()} ${path}`, operation] as const),
);
const CONDITIONAL = [
  "GET /api/v1/briefing",
  "GET /api/v1/data-sources",
  "GET /api/v1/skills",
  "GET /api/v1/skills/{name}/files",
  "GET /api/v1/artifacts/{id}",
  "GET /api/v1/openapi.json",
];
const operation = (name: string) => operations.find(([n]) => n === name)![1];

describe("the OpenAPI document's metadata", () => {
  it("names this server as `/` when PUBLIC_BASE_URL is unset", () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: "/" })]);
  });

  it("names PUBLIC_BASE_URL as the server, and the reference page as the contact, when it is set", () => {
    const served = buildOpenApiDocument(apiV1Routes(), apiV1DocumentInfo("https://api.acme.example/"));
    expect(served.servers).toEqual([{ url: "https://api.acme.example/" }]);
    expect(served.info.contact?.url).toBe("https://api.acme.example/docs");
  });

  it("has a license and a contact", () => {
    expect(doc.info.license?.name).toEqual(expect.any(String));
    expect(doc.info.contact?.name).toEqual(expect.any(String));
  });

  it("declares every tag an operation uses, each with a description", () => {
    const used = new Set(operations.flatMap(([, op]) => op.tags));
    expect(doc.tags?.map((tag) => tag.name).sort()).toEqual([...used].sort());
    for (const tag of doc.tags ?? []) expect(tag.description).toEqual(expect.any(String));
  });

  it("refuses to build a document whose route uses an undeclared tag", () => {
    const info = { ...apiV1DocumentInfo(), tags: [] };
    expect(() => buildOpenApiDocument(apiV1Routes(), info)).toThrow(/undeclared tags/);
  });
});

describe.each(operations)("%s", (_name, op) => {
  it("has a summary and a camelCase operationId", () => {
    expect(op.summary).toEqual(expect.any(String));
    expect(op.operationId).toMatch(/^[a-z][A-Za-z]+$/);
  });

  it("shows an example of every JSON response and of its request body", () => {
    for (const response of Object.values(op.responses)) {
      if (response.content) expect(response.content["application/json"]!.example).toBeDefined();
    }
    if (op.requestBody) expect(op.requestBody.content["application/json"]!.example).toBeDefined();
  });

  it("shows an example of every path and query parameter", () => {
    for (const parameter of (op.parameters ?? []).filter((p) => p.in === "path" || p.in === "query")) {
      const hasDefault = (parameter.schema as { default?: unknown } | undefined)?.default !== undefined;
      if (!hasDefault && !["status", "audience"].includes(parameter.name)) {
        expect(parameter.example ?? parameter.schema?.example).toBeDefined();
      }
    }
  });
});

describe("examples in the route declarations", () => {
  it.each(apiV1DocumentedRoutes().map((route) => [route.operationId, route] as const))("of %s pass their own schemas", (_id, route) => {
    if (route.request?.bodyExample !== undefined) expect(route.request.body!.safeParse(route.request.bodyExample).error).toBeUndefined();
    for (const contract of Object.values(route.responses)) {
      if (contract.schema && contract.example !== undefined) expect(contract.schema.safeParse(contract.example).error).toBeUndefined();
    }
  });
});

describe("conditional GETs in the document", () => {
  it.each(CONDITIONAL)("%s takes If-None-Match, shows the ETag of its 200 and documents 304", (name) => {
    const op = operation(name);
    expect(op.parameters).toContainEqual(expect.objectContaining({ name: "If-None-Match", in: "header" }));
    expect(op.responses["200"]!.headers).toHaveProperty("ETag");
    expect(op.responses["304"]).toBeDefined();
    expect(op.responses["304"]!.content).toBeUndefined();
  });

  it("documents Cache-Control: private on the answers of key-authenticated operations only", () => {
    expect(operation("GET /api/v1/briefing").responses["200"]!.headers).toHaveProperty("Cache-Control");
    expect(operation("POST /api/v1/artifacts").responses["201"]!.headers).toHaveProperty("Cache-Control");
    expect(operation("GET /api/v1/openapi.json").responses["200"]!.headers).not.toHaveProperty("Cache-Control");
  });

  it("does not offer If-None-Match where the answer is not conditional", () => {
    expect(operation("GET /api/v1/artifacts").parameters).not.toContainEqual(expect.objectContaining({ name: "If-None-Match" }));
    expect(operation("GET /api/v1/artifacts").responses["304"]).toBeUndefined();
  });
});
