import type { Request } from "express";
import type { z } from "zod";
import { describeFirstIssue, describeRefusal } from "../contracts/issues";
import { ApiError, badRequest, notFound } from "./api-error";
import type { Route, RouteInput } from "./route";
import { findUnstorableInput } from "./text-safety";

type AnyInput = RouteInput<unknown, unknown, unknown, unknown>;

/**
 * Parses params, query, headers and body with the route's own contract schemas. Every failure is
 * a 400 naming the parameter or field; nothing reaches a handler that Postgres could not store.
 */
export function validateInput(route: Route, req: Request): AnyInput {
  const request = route.request ?? {};
  return {
    params: request.params ? parseParams(request.params, req.params) : undefined,
    query: request.query ? parseQuery(request.query, req.query as Record<string, unknown>) : undefined,
    headers: request.headers ? parsePart(request.headers, pickHeaders(request.headers, req), "header ") : undefined,
    body: request.body ? parseBody(request.body, req) : undefined,
  } as AnyInput;
}

/** A path parameter Postgres could not store names nothing that exists: 404, as for any unknown id. */
function parseParams(schema: z.ZodType, params: unknown): unknown {
  const unstorable = findUnstorableInput(params);
  if (unstorable) throw notFound(`path parameter ${unstorable.path}: ${unstorable.problem}, so no such resource exists`);
  return parseStorable(schema, params, "path parameter ");
}

function parsePart(schema: z.ZodType, value: unknown, label: string): unknown {
  const unstorable = findUnstorableInput(value);
  if (unstorable) throw badRequest(`${label}${unstorable.path}: ${unstorable.problem}`);
  return parseStorable(schema, value, label);
}

/** `value`, found storable, parsed by its contract schema. */
function parseStorable(schema: z.ZodType, value: unknown, label: string): unknown {
  const parsed = schema.safeParse(value, { reportInput: true });
  if (!parsed.success) throw badRequest(`${label}${describeFirstIssue(parsed.error)}`);
  return parsed.data;
}

function parseQuery(schema: z.ZodObject<z.ZodRawShape>, query: Record<string, unknown>): unknown {
  // Only the parameters the contract knows are read; unknown ones are ignored (forward compatible).
  const known: Record<string, unknown> = {};
  for (const name of Object.keys(schema.shape)) {
    // The "simple" query parser keeps `query[]=x` or `query[a]=x` as a parameter of that literal
    // name, so without this the contract would report the parameter as missing.
    const bracketed = Object.keys(query).find((key) => key.startsWith(`${name}[`));
    if (bracketed !== undefined) {
      throw badRequest(`query parameter ${name}: must be a plain string given once (${name}=…), not ${bracketed}`);
    }
    const value = query[name];
    if (Array.isArray(value)) throw badRequest(`query parameter ${name}: must be given once, not ${value.length} times`);
    if (value !== undefined && typeof value !== "string") throw badRequest(`query parameter ${name}: must be a plain string`);
    if (value !== undefined) known[name] = value;
  }
  return parsePart(schema, known, "query parameter ");
}

function pickHeaders(schema: z.ZodObject<z.ZodRawShape>, req: Request): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of Object.keys(schema.shape)) {
    const value = req.get(name);
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}

function parseBody(schema: z.ZodType, req: Request): unknown {
  if (req.body === undefined) {
    // req.is answers null for a request with no body at all, whatever its Content-Type says: a missing body, not a wrong type.
    if (req.get("content-type") && req.is("application/json") === false) {
      throw new ApiError("unsupported_media_type", "Content-Type must be application/json");
    }
    throw badRequest("body: is required: send a JSON object with Content-Type: application/json");
  }
  if (req.body === null || typeof req.body !== "object" || Array.isArray(req.body)) {
    throw badRequest("body: must be a JSON object");
  }
  const unstorable = findUnstorableInput(req.body);
  if (unstorable) throw badRequest(`${unstorable.path || "body"}: ${unstorable.problem}`);
  const parsed = schema.safeParse(req.body, { reportInput: true });
  if (!parsed.success) throw badRequest(describeRefusal(schema, parsed.error) || "body: invalid");
  return parsed.data;
}
