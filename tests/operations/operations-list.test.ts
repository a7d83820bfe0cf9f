import type { z } from "zod";
import { z as zod } from "../../src/contracts/zod";
import type { Route } from "../../src/http/route";
import { MCP_TOOLS } from "../../src/mcp/tools";
import { OPERATIONS } from "../../src/operations";
import type { AnyOperation } from "../../src/operations/operation";
import { adminV1Routes } from "../../src/routes/admin";
import { apiV1Routes } from "../../src/routes/api-v1";

type AnyObject = z.ZodObject<z.ZodRawShape>;

/** What a schema accepts, as JSON Schema, without the prose: its types, limits and defaults. */
function limitsOf(schema: z.ZodType): unknown {
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (value === null || typeof value !== "object") return value;
    return Object.fromEntries(Object.entries(value).filter(([key]) => key !== "description" && key !== "examples" && key !== "example").map(([key, inner]) => [key, strip(inner)]));
  };
  return strip(zod.toJSONSchema(schema, { io: "input", unrepresentable: "any" }));
}

/** Each input field of a REST route's request, by name: path, query and header fields, and the body as the field it fills. */
function requestFields(route: Route, operation: AnyOperation): Record<string, z.ZodType> {
  const request = route.request ?? {};
  const fields = { ...(request.params as AnyObject | undefined)?.shape, ...(request.query as AnyObject | undefined)?.shape } as Record<string, z.ZodType>;
  const input = operation.input as AnyObject;
  for (const [header, schema] of Object.entries((request.headers as AnyObject | undefined)?.shape ?? {})) {
    const field = Object.keys(input.shape).find((name) => input.shape[name] === schema);
    fields[field ?? `header ${header}`] = schema as z.ZodType;
  }
  if (request.body) {
    const field = Object.keys(input.shape).find((name) => input.shape[name] === request.body);
    fields[field ?? "body"] = request.body;
  }
  return fields;
}

const byName = new Map(OPERATIONS.map((operation) => [operation.name, operation]));
const servedRoutes = (routes: Route[]) => routes.filter((route) => route.operationId !== "getOpenApiDocument" && !route.path.endsWith("openapi.json"));
const apiRoutes = servedRoutes(apiV1Routes());
const adminRoutes = servedRoutes(adminV1Routes());
const restRoutes = [...apiRoutes, ...adminRoutes];

describe("the operations list", () => {
  it("names each operation once", () => {
    expect(byName.size).toBe(OPERATIONS.length);
  });

  it.each([
    ["/api/v1", apiRoutes],
    ["/admin/v1", adminRoutes],
  ])("is where every %s route comes from: the same input fields, with the very same schemas", (_prefix, routes) => {
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) {
      const operation = byName.get(route.operationId);
      expect({ route: route.operationId, declared: operation !== undefined }).toEqual({ route: route.operationId, declared: true });
      const input = operation!.input as AnyObject;
      const fields = requestFields(route, operation!);
      expect(Object.keys(fields).sort()).toEqual(Object.keys(input.shape).sort());
      for (const [name, schema] of Object.entries(fields)) expect({ route: route.operationId, name, same: schema === input.shape[name] }).toEqual({ route: route.operationId, name, same: true });
      expect(route.summary).toBe(operation!.summary);
    }
  });

  it("gives each route the access of its operation: the admin token for exactly the admin operations", () => {
    for (const route of restRoutes) {
      const access = byName.get(route.operationId)!.access;
      expect({ route: route.operationId, auth: route.auth }).toEqual({ route: route.operationId, auth: access.kind === "workspace" ? { kind: "apiKey", scope: access.scope } : access });
    }
    for (const route of adminRoutes) expect({ route: route.operationId, auth: route.auth.kind }).toEqual({ route: route.operationId, auth: "admin" });
  });

  it("holds no operation that no adapter offers", () => {
    const offered = new Set([...restRoutes.map((route) => route.operationId), ...MCP_TOOLS.map((tool) => tool.operation.name)]);
    expect(OPERATIONS.map((operation) => operation.name).filter((name) => !offered.has(name))).toEqual([]);
  });

  it("names the workspace in every admin path that acts on a key or an artifact, except deprecated ones that point to their successor", () => {
    const actsOnOne = (route: Route) => /\/(keys|artifacts)\/\{/.test(route.path);
    const scoped = adminRoutes.filter((route) => actsOnOne(route) && route.path.startsWith("/admin/v1/workspaces/{workspaceId}/"));
    expect(scoped.map((route) => `${route.method.toUpperCase()} ${route.path}`).sort()).toEqual([
      "DELETE /admin/v1/workspaces/{workspaceId}/artifacts/{artifactId}",
      "DELETE /admin/v1/workspaces/{workspaceId}/keys/{keyId}",
      "POST /admin/v1/workspaces/{workspaceId}/artifacts/{artifactId}/dispute",
      "POST /admin/v1/workspaces/{workspaceId}/artifacts/{artifactId}/validate",
    ]);
    const unscoped = adminRoutes.filter((route) => actsOnOne(route) && !route.path.startsWith("/admin/v1/workspaces/"));
    expect(unscoped).toHaveLength(3);
    for (const route of unscoped) {
      const successor = /^Deprecated: use `(\w+) (\S+)`\./.exec(route.description ?? "");
      expect({ route: route.operationId, deprecated: route.deprecated, successor: Boolean(successor) }).toEqual({ route: route.operationId, deprecated: true, successor: true });
      expect(scoped.map((other) => `${other.method.toUpperCase()} ${other.path}`)).toContain(`${successor![1]} ${successor![2]}`);
    }
    expect(adminRoutes.filter((route) => route.deprecated).length).toBe(unscoped.length);
  });

  it("is where every MCP tool comes from: its arguments take the operation's types and limits", () => {
    for (const tool of MCP_TOOLS) {
      expect(OPERATIONS).toContain(tool.operation);
      expect({ tool: tool.name, limits: limitsOf(tool.input) }).toEqual({ tool: tool.name, limits: limitsOf(tool.operation.input) });
      // The operation's answer; a search's structured result adds only how it ranked (REST: X-Search-Mode).
      const added = Object.keys(tool.output.shape).filter((field) => !(field in (tool.operation.output as typeof tool.output).shape));
      if (added.length === 0) expect(tool.output).toBe(tool.operation.output);
      else expect(added).toEqual(["searchMode"]);
    }
    expect(MCP_TOOLS.filter((tool) => "searchMode" in tool.output.shape).map((tool) => tool.name)).toEqual(["search", "recall_memories", "get_query_intelligence"]);
  });

  it("gives a tool and the REST route that reads the same input the same limits", () => {
    let twins = 0;
    for (const tool of MCP_TOOLS) {
      const route = restRoutes.find((candidate) => byName.get(candidate.operationId)!.input === tool.operation.input);
      if (!route) continue;
      twins++;
      const fields = requestFields(route, byName.get(route.operationId)!);
      expect({ tool: tool.name, limits: limitsOf(tool.input) }).toEqual({ tool: tool.name, limits: limitsOf(zod.object(fields)) });
    }
    // search, fetch, get_briefing, recall_memories, list_data_sources, get_query_intelligence, list_skills, get_skill_file
    expect(twins).toBe(MCP_TOOLS.length);
  });

  it("fails the comparison when a tool's limit differs from its route's", () => {
    const search = MCP_TOOLS.find((tool) => tool.name === "search")!;
    const narrowed = zod.object({ ...search.input.shape, limit: zod.number().int().min(1).max(50).optional() });
    expect(limitsOf(narrowed)).not.toEqual(limitsOf(search.operation.input));
  });
});
