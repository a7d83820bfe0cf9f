import { ErrorSchema } from "../../contracts/common";
import { ApiError } from "../../http/api-error";
import { buildOpenApiDocument, type DocumentInfo } from "../../http/openapi-document";
import { defineRoute, type Route, type RouteAuth } from "../../http/route";

/** A route that serves the OpenAPI document of `routes` (built once, on first request). */
export function openApiDocumentRoute(
  path: string,
  routes: () => readonly Route[],
  info: DocumentInfo,
  auth: RouteAuth = { kind: "public" },
): Route {
  let document: ReturnType<typeof buildOpenApiDocument> | undefined;
  return defineRoute({
    method: "get",
    path,
    operationId: path.startsWith("/admin") ? "getAdminOpenApiDocument" : "getOpenApiDocument",
    summary: "OpenAPI description",
    description: auth.kind === "public" ? "This OpenAPI 3.1 document. Public: no key needed." : "This OpenAPI 3.1 document.",
    tags: ["Meta"],
    auth,
    conditional: true,
    responses: {
      200: { description: "The OpenAPI 3.1 document." },
      406: {
        description: "The request's `Accept` header rules out `application/json`, the only form of this document.",
        schema: ErrorSchema,
        example: { error: "This document is served as application/json only, which Accept rules out", code: "not_acceptable" },
      },
    },
    handle: async (_input, { req }) => {
      if (!req.accepts("application/json")) {
        throw new ApiError("not_acceptable", "This document is served as application/json only, which Accept rules out");
      }
      document ??= buildOpenApiDocument(routes(), info);
      return { status: 200, body: document };
    },
  });
}
