import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from "@asteasolutions/zod-to-openapi";
import { SCOPE_DESCRIPTIONS, SCOPES } from "../auth/scopes";
import { ErrorSchema } from "../contracts/common";
import { z } from "../contracts/zod";
import { isRateLimited, type ResponseContract, type Route } from "./route";

export interface DocumentTag {
  name: string;
  description: string;
}

export interface DocumentInfo {
  title: string;
  version: string;
  description: string;
  /** Absolute public address; when unset the document names this server itself (`/`). */
  serverUrl?: string;
  /** Every tag an operation uses, with what it groups; an undeclared tag is a programming error. */
  tags: DocumentTag[];
  contact: { name: string; url?: string; email?: string };
  license: { name: string; url?: string; identifier?: string };
}

const STRING = { type: "string" as const };
const REQUEST_ID_HEADER = {
  "X-Request-Id": { description: "Id of this request, to quote when reporting a problem.", schema: STRING },
};
const ETAG_HEADER = {
  ETag: {
    description: "Strong entity tag of this body. Send it back as `If-None-Match` to get 304 while nothing changed.",
    schema: STRING,
  },
};
const PRIVATE_CACHE_HEADER = {
  "Cache-Control": { description: "`private`: workspace data, for no shared cache.", schema: STRING },
};
const RATE_LIMIT_HEADERS = {
  RateLimit: {
    description: 'Remaining budget: `"per-key"; r=<requests left>; t=<seconds until the window resets>` (IETF draft-ietf-httpapi-ratelimit-headers-08 syntax).',
    schema: STRING,
  },
  "RateLimit-Policy": {
    description: 'The limit: `"per-key"; q=<requests>; w=<window seconds>; pk=:<partition>:` (`"per-address"` on routes without a key).',
    schema: STRING,
  },
};
const IF_NONE_MATCH = z.string().optional().openapi({
  description: "The `ETag` of a copy the client holds: when it is still current the answer is 304 with no body.",
  example: '"n4bQgYhMfWWaL-qgxVrQFaO_TxsrC4Is0V1sFbDwCgg"',
});

function errorExample(code: string, error: string) {
  return { error, code };
}

/** A real message for a 400 of this route, naming the first thing it reads. */
function badRequestExample(route: Route) {
  const request = route.request ?? {};
  const first = (schema: { shape: object } | undefined) => (schema ? Object.keys(schema.shape)[0] : undefined);
  const query = first(request.query);
  const param = first(request.params);
  if (request.body) return errorExample("bad_request", "body: is required: send a JSON object with Content-Type: application/json");
  if (query) return errorExample("bad_request", `query parameter ${query}: must be given once, not 2 times`);
  if (param) return errorExample("bad_request", `path parameter ${param}: contains a NUL character (\\u0000), which cannot be stored`);
  return errorExample("bad_request", "header: invalid");
}

/** Responses every route can give because of how it is called, added so no route repeats them. */
function implicitResponses(route: Route): Record<number, ResponseContract> {
  const responses: Record<number, ResponseContract> = {};
  const request = route.request;
  const operation = `${route.method.toUpperCase()} ${route.path}`;
  if (request && (request.body || request.query || request.params || request.headers)) {
    responses[400] = { description: "Invalid parameters or body; `error` names the field.", schema: ErrorSchema, example: badRequestExample(route) };
  }
  if (route.auth.kind !== "public") {
    responses[401] = {
      description: "Missing, invalid or revoked credentials.",
      schema: ErrorSchema,
      example: errorExample("unauthorized", "Missing Authorization header: send Authorization: Bearer <API key>"),
    };
  }
  if (route.auth.kind === "apiKey") {
    responses[403] = {
      description: `The API key lacks the \`${route.auth.scope}\` scope.`,
      schema: ErrorSchema,
      example: errorExample("forbidden", `This API key lacks the ${route.auth.scope} scope, which ${operation} requires`),
    };
  }
  if (request?.body) {
    responses[413] = {
      description: "Body larger than 1 MiB.",
      schema: ErrorSchema,
      example: errorExample("payload_too_large", "Request body is larger than the 1 MiB limit"),
    };
  }
  if (isRateLimited(route)) {
    responses[429] = {
      description: "Over the rate limit of the API key (or, without a key, of the client address); retry after `Retry-After` seconds.",
      schema: ErrorSchema,
      headers: { "Retry-After": { description: "Seconds until the limit resets.", schema: STRING } },
      example: errorExample("rate_limited", "Too many requests from this API key: the limit is 600 per 60 s; retry after 12 s"),
    };
  }
  if (route.conditional) {
    responses[304] = { description: "Not modified: the `If-None-Match` tag is still current. No body." };
  }
  if (route.auth.kind !== "public") {
    // Every authenticated route reads the database (its credentials, at least).
    responses[503] = {
      description:
        "The database, or the node that holds the workspace, is not answering: retry after `Retry-After` seconds (a push retried with its `Idempotency-Key` is stored once).",
      schema: ErrorSchema,
      headers: { "Retry-After": { description: "Seconds to wait before retrying.", schema: STRING } },
      example: errorExample("service_unavailable", "The workspace's data cannot be reached right now: the database, or the node that holds the workspace, is not answering; retry after the Retry-After seconds (a push retried with its Idempotency-Key is stored once)"),
    };
  }
  return responses;
}

function toResponses(route: Route): RouteConfig["responses"] {
  const all = { ...implicitResponses(route), ...route.responses };
  const responses: RouteConfig["responses"] = {};
  for (const [status, contract] of Object.entries(all)) {
    const ok = status.startsWith("2");
    const headers = {
      ...REQUEST_ID_HEADER,
      ...(route.auth.kind === "apiKey" && (ok || status === "304") ? PRIVATE_CACHE_HEADER : {}),
      ...(route.conditional && (status === "200" || status === "304") ? ETAG_HEADER : {}),
      ...(isRateLimited(route) && (ok || status === "304" || status === "429") ? RATE_LIMIT_HEADERS : {}),
      ...(contract.headers ?? {}),
    };
    const example = contract.example ?? (contract.schema === ErrorSchema ? errorExample(codeOf(status), contract.description) : undefined);
    responses[status] = {
      description: contract.description,
      headers,
      ...(contract.schema
        ? { content: { "application/json": { schema: contract.schema, ...(example === undefined ? {} : { example }) } } }
        : {}),
    };
  }
  return responses;
}

const CODE_BY_STATUS: Record<string, string> = {
  "404": "not_found",
  "406": "not_acceptable",
  "409": "conflict",
  "422": "unprocessable",
  "502": "bad_gateway",
  "503": "service_unavailable",
};
const codeOf = (status: string) => CODE_BY_STATUS[status] ?? "bad_request";

function requestHeaders(route: Route) {
  const declared = route.request?.headers;
  if (!route.conditional) return declared;
  return (declared ?? z.object({})).extend({ "If-None-Match": IF_NONE_MATCH });
}

/**
 * The bearer scheme, with what each scope its routes require lets a key do: the sentences of
 * SCOPE_DESCRIPTIONS, as prose and as `x-scopes` (scope → sentence) for tools that read them.
 */
function bearerScheme(routes: readonly Route[]) {
  const required = new Set(routes.flatMap((route) => (route.auth.kind === "apiKey" ? [route.auth.scope] : [])));
  const scopes = SCOPES.filter((scope) => required.has(scope));
  if (scopes.length === 0) return { type: "http" as const, scheme: "bearer", description: "`Authorization: Bearer <token>`." };
  const list = scopes.map((scope) => `- \`${scope}\`: ${SCOPE_DESCRIPTIONS[scope]}`).join("\n");
  return {
    type: "http" as const,
    scheme: "bearer",
    description: `\`Authorization: Bearer <token>\`. A key with scopes may call only the operations of its scopes; a key with none may call all.\n\n${list}`,
    "x-scopes": Object.fromEntries(scopes.map((scope) => [scope, SCOPE_DESCRIPTIONS[scope]])),
  };
}

/** The OpenAPI 3.1 document of a set of routes, generated from the same schemas that validate them. */
export function buildOpenApiDocument(routes: readonly Route[], info: DocumentInfo) {
  const registry = new OpenAPIRegistry();
  const bearer = registry.registerComponent("securitySchemes", "bearerAuth", bearerScheme(routes));
  const declaredTags = new Set(info.tags.map((tag) => tag.name));
  for (const route of routes) {
    const undeclared = route.tags.filter((tag) => !declaredTags.has(tag));
    if (undeclared.length > 0) throw new Error(`${route.operationId} uses undeclared tags: ${undeclared.join(", ")}`);
    const scopes = route.auth.kind === "apiKey" ? [route.auth.scope] : [];
    const scopeNote = scopes.length > 0 ? `\n\nRequired scope: \`${scopes[0]}\`.` : "";
    const request = route.request ?? {};
    const headers = requestHeaders(route);
    registry.registerPath({
      method: route.method,
      path: route.path,
      operationId: route.operationId,
      summary: route.summary,
      description: `${route.description ?? route.summary}${scopeNote}`,
      tags: route.tags,
      ...(route.deprecated ? { deprecated: true } : {}),
      security: route.auth.kind === "public" ? [] : [{ [bearer.name]: [] }],
      request: {
        ...(request.params ? { params: request.params } : {}),
        ...(request.query ? { query: request.query } : {}),
        ...(headers ? { headers } : {}),
        ...(request.body
          ? {
              body: {
                required: true,
                content: {
                  "application/json": {
                    schema: request.body,
                    ...(request.bodyExample === undefined ? {} : { example: request.bodyExample }),
                  },
                },
              },
            }
          : {}),
      },
      responses: toResponses(route),
      ...(route.auth.kind === "apiKey" ? { "x-required-scopes": scopes } : {}),
    });
  }
  const usedTags = new Set(routes.flatMap((route) => route.tags));
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: { title: info.title, version: info.version, description: info.description, contact: info.contact, license: info.license },
    servers: [
      info.serverUrl
        ? { url: info.serverUrl }
        : { url: "/", description: "This server: PUBLIC_BASE_URL is not set, so paths resolve against the document's own address." },
    ],
    tags: info.tags.filter((tag) => usedTags.has(tag.name)),
  });
  // The service sends no events; the contract says so with an empty webhooks section.
  return { ...document, webhooks: {} };
}
