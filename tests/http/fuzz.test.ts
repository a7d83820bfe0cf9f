import http from "node:http";
import fc from "fast-check";
import request from "supertest";
import type { z } from "zod";
import { answerClientErrorsAsJson } from "../../src/http/percent-encoding";
import type { Route } from "../../src/http/route";
import { adminV1Routes } from "../../src/routes/admin";
import { apiV1Routes } from "../../src/routes/api-v1";
import { downloadFileRoute } from "../../src/routes/downloads/download-file";
import { minimalArtifact } from "../support/artifacts";
import { adminAuth, createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

// Property-based: requests derived from each route's own contract schemas, then mutated. Fixed
// seed and few runs, so the suite stays fast and a failure replays the same way.
const SEED = 1322;
const RUNS = 12;

let t: TestApp;
let ws: WorkspaceWithKey;
// A real HTTP server with the server's client-error hook, so over-long URLs get their JSON 431 too.
let server: http.Server;
beforeAll(async () => {
  t = await createTestApp({ rateLimits: { windowSeconds: 60, perKey: 100_000, perAddress: 100_000 } });
  ws = await createWorkspaceWithKey(t.services);
  server = http.createServer(t.app);
  answerClientErrorsAsJson(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

const routes: Route[] = [downloadFileRoute, ...apiV1Routes(), ...adminV1Routes()];
const fieldsOf = (schema: z.ZodType | undefined): string[] =>
  Object.keys((schema as unknown as { shape?: Record<string, unknown> } | undefined)?.shape ?? {});

/** Hostile values: wrong types, huge and tiny numbers, odd Unicode, deep and wide structures. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.constantFrom("", " ", "\u0000", "\ud800", "%", "%E0%A4%A", "__proto__", "1e400", "NaN", "-0", "0x10", "../..", "\u202e"),
  fc.double(),
  fc.constantFrom(1e308, -1e308, 8.64e15 + 1, Number.MAX_SAFE_INTEGER + 2, -1, 0, 1),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 4 }),
    fc.constant("x".repeat(20_000)),
);

/** One mutation of a request: a field set to a hostile value, removed, or a query parameter repeated. */
const mutation = (fields: string[]) =>
  fc.record({
    field: fields.length > 0 ? fc.constantFrom(...fields) : fc.constant("unknown"),
    kind: fc.constantFrom("set", "remove", "repeat"),
    value: hostileValue,
    pathValue: fc.string({ unit: "binary", maxLength: 30 }),
  });

function pathFor(route: Route, value: string): string {
  return route.path.replace(/\{(\w+)\}/g, () => encodeURIComponent(value) || "x");
}

function authFor(route: Route): Record<string, string> {
  if (route.auth.kind === "apiKey") return ws.auth;
  if (route.auth.kind === "admin") return adminAuth(t.adminToken);
  return {};
}

const counts = async () => ({
  artifacts: await t.database.prisma.artifact.count(),
  workspaces: await t.database.prisma.workspace.count(),
  keys: await t.database.prisma.apiKey.count(),
  memories: await t.database.prisma.memory.count(),
});

describe.each(routes.map((route) => [`${route.method.toUpperCase()} ${route.path}`, route] as const))("%s", (_name, route) => {
  it("never answers 5xx to mutated input, names the problem, and stores nothing it refused", async () => {
    const queryFields = fieldsOf(route.request?.query);
    const bodyFields = fieldsOf(route.request?.body);
    await fc.assert(
      fc.asyncProperty(mutation([...queryFields, ...bodyFields]), async ({ field, kind, value, pathValue }) => {
        const path = pathFor(route, route.path.includes("{") ? pathValue : "");
        const query = new URLSearchParams();
        if (queryFields.includes(field) && kind !== "remove") {
          const text = typeof value === "string" ? value : JSON.stringify(value) ?? "";
          query.append(field, text);
          if (kind === "repeat") query.append(field, text);
        }
        const body: Record<string, unknown> = route.path === "/api/v1/artifacts" ? minimalArtifact() : {};
        if (bodyFields.includes(field)) {
          if (kind === "remove") delete body[field];
          else body[field] = value;
        }
        const before = await counts();
        const url = query.size > 0 ? `${path}?${query}` : path;
        let call = request(server)[route.method](url).set(authFor(route));
        if (route.request?.body) call = call.send(body);
        const res = await call;
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) {
          expect(res.body).toEqual({ error: expect.any(String), code: expect.any(String) });
          expect(res.body.error.length).toBeGreaterThan(0);
          expect(await counts()).toEqual(before);
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
