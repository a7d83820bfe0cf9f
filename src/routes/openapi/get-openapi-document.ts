import { defineRoute, type Route, type RouteAuth } from "../../http/route";
import { buildOpenApiDocument, type DocumentInfo } from "../../http/openapi-document";

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
    responses: { 200: { description: "The OpenAPI 3.1 document." } },
    handle: async () => {
      document ??= buildOpenApiDocument(routes(), info);
      return { status: 200, body: document };
    },
  });
}
