import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from "@asteasolutions/zod-to-openapi";
import { ErrorSchema } from "../contracts/common";
import { isRateLimited, type ResponseContract, type Route } from "./route";

export interface DocumentInfo {
  title: string;
  version: string;
  description: string;
  serverUrl?: string;
}

const REQUEST_ID_HEADER = {
  "X-Request-Id": { description: "Id of this request, to quote when reporting a problem.", schema: { type: "string" as const } },
};

const RATE_LIMIT_HEADERS = {
  RateLimit: {
    description: 'Remaining budget: `"per-key"; r=<requests left>; t=<seconds until the window resets>` (IETF draft-ietf-httpapi-ratelimit-headers-08 syntax).',
    schema: { type: "string" as const },
  },
  "RateLimit-Policy": {
    description: 'The limit: `"per-key"; q=<requests>; w=<window seconds>; pk=:<partition>:` (`"per-address"` on routes without a key).',
    schema: { type: "string" as const },
  },
};

/** Responses every route can give because of how it is called, added so no route repeats them. */
function implicitErrors(route: Route): Record<number, ResponseContract> {
  const errors: Record<number, ResponseContract> = {};
  const request = route.request;
  if (request && (request.body || request.query || request.params || request.headers)) {
    errors[400] = { description: "Invalid parameters or body; `error` names the field.", schema: ErrorSchema };
  }
  if (route.auth.kind !== "public") {
    errors[401] = { description: "Missing, invalid or revoked credentials.", schema: ErrorSchema };
  }
  if (route.auth.kind === "apiKey") {
    errors[403] = { description: `The API key lacks the \`${route.auth.scope}\` scope.`, schema: ErrorSchema };
  }
  if (request?.body) {
    errors[413] = { description: "Body larger than 1 MiB.", schema: ErrorSchema };
  }
  if (isRateLimited(route)) {
    errors[429] = {
      description: "Over the rate limit of the API key (or, without a key, of the client address); retry after `Retry-After` seconds.",
      schema: ErrorSchema,
      headers: { "Retry-After": { description: "Seconds until the limit resets.", schema: { type: "string" } } },
    };
  }
  return errors;
}

function toResponses(route: Route): RouteConfig["responses"] {
  const all = { ...implicitErrors(route), ...route.responses };
  const responses: RouteConfig["responses"] = {};
  for (const [status, contract] of Object.entries(all)) {
    responses[status] = {
      description: contract.description,
      headers: {
        ...REQUEST_ID_HEADER,
        ...(isRateLimited(route) && (Number(status) < 300 || Number(status) === 429) ? RATE_LIMIT_HEADERS : {}),
        ...(contract.headers ?? {}),
      },
      ...(contract.schema ? { content: { "application/json": { schema: contract.schema } } } : {}),
    };
  }
  return responses;
}

/** The OpenAPI 3.1 document of a set of routes, generated from the same schemas that validate them. */
export function buildOpenApiDocument(routes: readonly Route[], info: DocumentInfo) {
  const registry = new OpenAPIRegistry();
  const bearer = registry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description: "`Authorization: Bearer <token>`.",
  });
  for (const route of routes) {
    const scopes = route.auth.kind === "apiKey" ? [route.auth.scope] : [];
    const scopeNote = scopes.length > 0 ? `\n\nRequired scope: \`${scopes[0]}\`.` : "";
    const request = route.request ?? {};
    registry.registerPath({
      method: route.method,
      path: route.path,
      operationId: route.operationId,
      summary: route.summary,
      description: `${route.description ?? route.summary}${scopeNote}`,
      tags: route.tags,
      security: route.auth.kind === "public" ? [] : [{ [bearer.name]: [] }],
      request: {
        ...(request.params ? { params: request.params } : {}),
        ...(request.query ? { query: request.query } : {}),
        ...(request.headers ? { headers: request.headers } : {}),
        ...(request.body
          ? { body: { required: true, content: { "application/json": { schema: request.body } } } }
          : {}),
      },
      responses: toResponses(route),
      ...(route.auth.kind === "apiKey" ? { "x-required-scopes": scopes } : {}),
    });
  }
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: { title: info.title, version: info.version, description: info.description },
    ...(info.serverUrl ? { servers: [{ url: info.serverUrl }] } : {}),
  });
  // The service sends no events; the contract says so with an empty webhooks section.
  return { ...document, webhooks: {} };
}
