import type { Request, Response } from "express";
import type { z } from "zod";
import type { Scope } from "../auth/scopes";
import type { ApiKeyPrincipal } from "../auth/principal";
import type { Services } from "../services";

type AnyObjectSchema = z.ZodObject<z.ZodRawShape>;

export type HttpMethod = "get" | "post" | "patch" | "delete";

/** Who may call a route: a workspace API key with a scope, the admin token, or anyone. */
export type RouteAuth = { kind: "apiKey"; scope: Scope } | { kind: "admin" } | { kind: "public" };

export interface ResponseContract {
  description: string;
  schema?: z.ZodType;
  headers?: Record<string, { description: string; schema: { type: "string"; enum?: string[] } }>;
  /** A body that passes `schema`, shown in the OpenAPI document (a test parses each one). */
  example?: unknown;
}

export interface RouteRequest<P, Q, B, H> {
  params?: P;
  query?: Q;
  body?: B;
  headers?: H;
  /** A body that passes `body`, shown in the OpenAPI document (a test parses each one). */
  bodyExample?: unknown;
}

type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteInput<P, Q, B, H> {
  params: Infer<P>;
  query: Infer<Q>;
  body: Infer<B>;
  headers: Infer<H>;
}

export interface RouteContext<A extends RouteAuth> {
  principal: A extends { kind: "apiKey" } ? ApiKeyPrincipal : undefined;
  services: Services;
  requestId: string;
  req: Request;
  res: Response;
}

export interface RouteResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** JSON text written piece by piece instead of `body`, for an answer too large to hold (its items were parsed on the way). */
  stream?: AsyncIterable<string>;
  /** A conditional route's `ETag` when the result knows it (storedEntityTag); otherwise the hash of the bytes sent. */
  entityTag?: string;
}

export interface Route<
  A extends RouteAuth = RouteAuth,
  P extends AnyObjectSchema | undefined = AnyObjectSchema | undefined,
  Q extends AnyObjectSchema | undefined = AnyObjectSchema | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  H extends AnyObjectSchema | undefined = AnyObjectSchema | undefined,
> {
  method: HttpMethod;
  /** OpenAPI-style path, e.g. `/api/v1/artifacts/{id}`; the Express path is derived from it. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  auth: A;
  /** Still served for existing callers, and marked deprecated in the OpenAPI document; the description names its successor. */
  deprecated?: true;
  /** `false` exempts the route from the rate limits; admin routes are never limited. */
  rateLimited?: false;
  request?: RouteRequest<P, Q, B, H>;
  /** Documented responses; 400/401/403 are added from `auth` and `request`. */
  responses: Record<number, ResponseContract>;
  /**
   * A read whose 200 answer carries a strong `ETag` (a hash of the body bytes, or one the result
   * knows from what is stored) and answers a matching
   * `If-None-Match` with 304 and no body, so polling agents transfer only what changed.
   */
  conditional?: boolean;
  handle(input: RouteInput<P, Q, B, H>, ctx: RouteContext<A>): Promise<RouteResult>;
}

/** Declares a route once: its contract feeds both the OpenAPI document and the Express handler. */
export function defineRoute<
  A extends RouteAuth,
  P extends AnyObjectSchema | undefined = undefined,
  Q extends AnyObjectSchema | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  H extends AnyObjectSchema | undefined = undefined,
>(route: Route<A, P, Q, B, H>): Route {
  return route as unknown as Route;
}

/** Whether a route counts against a rate limit: per key with an API key, per address without credentials. */
export function isRateLimited(route: Route): boolean {
  return route.rateLimited !== false && route.auth.kind !== "admin";
}

export function toExpressPath(openApiPath: string): string {
  return openApiPath.replace(/\{(\w+)\}/g, ":$1");
}
