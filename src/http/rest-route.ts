import { ErrorSchema } from "../contracts/common";
import { z } from "../contracts/zod";
import { JsonStream, NO_CONTENT, wireFormOf, type AnyOperation, type OperationAccess, type OperationContext } from "../operations/operation";
import { ERROR_STATUS } from "./api-error";
import { storedEntityTag } from "./conditional-get";
import { WIRE_CODE_OF } from "./client-error";
import type { HttpMethod, ResponseContract, Route, RouteAuth } from "./route";
import { defineRoute } from "./route";

type AnyObject = z.ZodObject<z.ZodRawShape>;

type ResultOf<O extends AnyOperation> = Awaited<ReturnType<O["run"]>>;

/**
 * What REST adds to an operation: its method and path, where each input field travels (the path,
 * headers, the whole body; every other field in the query string), the success status and its
 * description and example, and headers a result sets.
 */
export interface RestBinding<O extends AnyOperation> {
  method: HttpMethod;
  /** OpenAPI-style path, e.g. `/api/v1/artifacts/{id}`; each `{name}` is an input field. */
  path: string;
  tags: string[];
  /** The input field that is the whole JSON body. */
  body?: keyof z.output<O["input"]> & string;
  /** A body that passes the body field's schema, shown in the OpenAPI document (a test parses each one). */
  bodyExample?: unknown;
  /** Request headers (lower case) and the input field each fills. */
  headers?: Record<string, keyof z.output<O["input"]> & string>;
  /** 204 answers no body: only for an operation whose output is NO_CONTENT. */
  success: { status: 200 | 201 | 204; description: string; example?: unknown; headers?: ResponseContract["headers"] };
  /** 202, with the same body, instead of the success status when the result says work goes on in the background. */
  accepted?: { description: string; when(result: ResultOf<O>): boolean };
  /** Response headers the result sets (a replayed push says so). */
  responseHeaders?(result: ResultOf<O>): Record<string, string> | undefined;
  conditional?: boolean;
  /**
   * For a conditional route whose answer what is stored fixes: the stored version of a result (an
   * id and when its row was written) and a name for the answer's form, bumped when toWire changes
   * what it makes of a record. The ETag is then made from them (storedEntityTag), with the output
   * schema, instead of by hashing every answer.
   */
  entityTag?: { representation: string; of(result: ResultOf<O>): string[] };
  /** A route kept for existing callers of an older path: marked deprecated, its description names the route to use. */
  deprecatedFor?: Route;
}

const pathFields = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);

function pickShape(schema: AnyObject, keys: string[]): AnyObject | undefined {
  if (keys.length === 0) return undefined;
  // The whole input in one part keeps the rules that relate its fields (a time range's bounds),
  // which Zod cannot carry over to a part of it.
  if (keys.length === Object.keys(schema.shape).length) return schema;
  return schema.pick(Object.fromEntries(keys.map((key) => [key, true])) as never);
}

const authOf = (access: OperationAccess): RouteAuth => (access.kind === "workspace" ? { kind: "apiKey", scope: access.scope } : access);

/** The refusals an operation documents, as REST responses: each kind's status, the shared error body, its sentence. */
function errorResponses(operation: AnyOperation): Record<number, ResponseContract> {
  const responses: Record<number, ResponseContract> = {};
  for (const [kind, documented] of Object.entries(operation.errors ?? {})) {
    const code = WIRE_CODE_OF[kind as keyof typeof WIRE_CODE_OF];
    responses[ERROR_STATUS[code]] = {
      description: documented!.description,
      schema: ErrorSchema,
      ...(documented!.example === undefined ? {} : { example: { error: documented!.example, code } }),
    };
  }
  return responses;
}

/** The REST route of an operation: its contract feeds the OpenAPI document and the Express handler, like any route. */
export function restRoute<O extends AnyOperation>(operation: O, binding: RestBinding<O>): Route {
  const input = operation.input as AnyObject;
  const inPath = pathFields(binding.path);
  const inHeaders = binding.headers ?? {};
  const elsewhere = new Set([...inPath, ...Object.values(inHeaders), ...(binding.body ? [binding.body] : [])]);
  const unknown = [...elsewhere].filter((field) => !(field in input.shape));
  if (unknown.length > 0) throw new Error(`${operation.name}: REST binding names fields its input lacks: ${unknown.join(", ")}`);
  const noContent = binding.success.status === 204;
  if (noContent !== (operation.output === NO_CONTENT)) throw new Error(`${operation.name}: 204 is the success status of an operation whose output is NO_CONTENT, and only of one`);
  const params = pickShape(input, inPath);
  const query = pickShape(input, Object.keys(input.shape).filter((field) => !elsewhere.has(field)));
  const headers = Object.keys(inHeaders).length
    ? z.object(Object.fromEntries(Object.entries(inHeaders).map(([header, field]) => [header, input.shape[field]!])))
    : undefined;
  const request = {
    ...(params ? { params } : {}),
    ...(query ? { query } : {}),
    ...(binding.body ? { body: input.shape[binding.body] as z.ZodType, ...(binding.bodyExample === undefined ? {} : { bodyExample: binding.bodyExample }) } : {}),
    ...(headers ? { headers } : {}),
  };
  const responses: Record<number, ResponseContract> = {
    [binding.success.status]: {
      description: binding.success.description,
      ...(noContent ? {} : { schema: operation.output }),
      ...(binding.success.example === undefined ? {} : { example: binding.success.example }),
      ...(binding.success.headers ? { headers: binding.success.headers } : {}),
    },
    ...errorResponses(operation),
  };
  if (binding.accepted) responses[202] = { description: binding.accepted.description, schema: operation.output };
  const successor = binding.deprecatedFor;
  const entityTagOf = binding.entityTag && storedEntityTag(`${binding.entityTag.representation} ${JSON.stringify(z.toJSONSchema(operation.output, { unrepresentable: "any", io: "output" }))}`);
  return defineRoute({
    method: binding.method,
    path: binding.path,
    operationId: operation.name,
    summary: operation.summary,
    description: successor
      ? `Deprecated: use \`${successor.method.toUpperCase()} ${successor.path}\`. ${operation.description ?? operation.summary}`
      : operation.description,
    ...(successor ? { deprecated: true as const } : {}),
    tags: binding.tags,
    auth: authOf(operation.access),
    request: Object.keys(request).length > 0 ? request : undefined,
    conditional: binding.conditional,
    responses,
    handle: async (parts, { principal, services, req }) => {
      const fromHeaders = Object.fromEntries(Object.entries(inHeaders).map(([header, field]) => [field, (parts.headers as Record<string, unknown> | undefined)?.[header]]));
      const fields = {
        ...(parts.params as object | undefined),
        ...(parts.query as object | undefined),
        ...(binding.body ? { [binding.body]: parts.body } : {}),
        ...fromHeaders,
      };
      const ctx = { principal, services, baseUrl: `${req.protocol}://${req.get("host")}` } as OperationContext;
      const result = await operation.run(fields, ctx);
      const status = binding.accepted?.when(result) ? 202 : binding.success.status;
      const wire = noContent ? undefined : wireFormOf(operation, result, ctx);
      if (wire instanceof JsonStream) return { status, stream: wire.chunks, headers: binding.responseHeaders?.(result) };
      const entityTag = entityTagOf?.(binding.entityTag!.of(result));
      return { status, body: wire, headers: binding.responseHeaders?.(result), entityTag };
    },
  });
}
