import express, { type Request, type Response, type Router } from "express";
import type { Services } from "../services";
import { ApiError } from "./api-error";
import { requireAdminToken, requireApiKey } from "./authenticate";
import { JSON_BODY_LIMIT, refuseNonUtf8Charset } from "./body-errors";
import { sendJsonConditionally } from "./conditional-get";
import { jsonAnswer, sendJsonText } from "./json-answer";
import type { AuthFailureLimiter, RateLimiters } from "./rate-limit/rate-limiters";
import type { Route, RouteContext } from "./route";
import { isRateLimited, toExpressPath } from "./route";
import { validateInput } from "./validate-input";

export interface MountOptions {
  services: Services;
  adminToken?: string;
  /** Per-key limit after an API key is accepted; per-address limit on routes without credentials. */
  rateLimiters?: RateLimiters;
  /** Refused credentials per client address, on routes with a key or the admin token. */
  authFailures?: AuthFailureLimiter;
  /** Also parse every answer through its contract schema and compare (tests, development): json-answer.ts. */
  checkResponses?: boolean;
}

const parseJsonBody = express.json({ limit: JSON_BODY_LIMIT, strict: false });

/**
 * Mounts each route with its chain: authenticate → rate limit → parse body → validate input →
 * handle → write the response through its contract schema. Authentication runs before the body is
 * read, so the error precedence is 401 → 403 → 429 → 400 → 404, and an anonymous caller cannot
 * make us parse 1 MiB.
 */
export function mountRoutes(router: Router, routes: readonly Route[], options: MountOptions): void {
  const methodsByPath = new Map<string, string[]>();
  for (const route of routes) {
    const expressPath = toExpressPath(route.path);
    const chain = [
      ...authenticationFor(route, options),
      ...rateLimitFor(route, options),
      ...(route.request?.body ? [refuseNonUtf8Charset, parseJsonBody] : []),
      handlerFor(route, options.services, options.checkResponses ?? true),
    ];
    router[route.method](expressPath, ...chain);
    methodsByPath.set(expressPath, [...(methodsByPath.get(expressPath) ?? []), route.method.toUpperCase()]);
  }
  for (const [expressPath, methods] of methodsByPath) {
    const allow = [...methods, ...(methods.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
    router.all(expressPath, (req: Request, res: Response) => {
      if (req.method === "OPTIONS") {
        res.set("Allow", allow).status(204).end();
        return;
      }
      throw new ApiError("method_not_allowed", `Method ${req.method} is not allowed on ${req.path}; allowed: ${allow}`, {
        Allow: allow,
      });
    });
  }
}

function authenticationFor(route: Route, options: MountOptions) {
  switch (route.auth.kind) {
    case "apiKey":
      return [requireApiKey(options.services.apiKeys, route.auth.scope, `${route.method.toUpperCase()} ${route.path}`, options.authFailures)];
    case "admin":
      return [requireAdminToken(options.adminToken, options.authFailures)];
    case "public":
      return [];
  }
}

/** After authentication, so a key's budget is counted by key id and an anonymous caller by address. */
function rateLimitFor(route: Route, options: MountOptions) {
  if (!options.rateLimiters || !isRateLimited(route)) return [];
  return [route.auth.kind === "apiKey" ? options.rateLimiters.perKey : options.rateLimiters.perAddress];
}

function handlerFor(route: Route, services: Services, checkResponses: boolean) {
  return async (req: Request, res: Response) => {
    // Answers to a workspace key are that workspace's data: no shared cache may keep them.
    if (route.auth.kind === "apiKey") res.set("Cache-Control", "private");
    const input = validateInput(route, req);
    const ctx: RouteContext<typeof route.auth> = {
      principal: res.locals.principal,
      services,
      requestId: res.locals.requestId,
      req,
      res,
    };
    const result = await route.handle(input, ctx);
    const contract = route.responses[result.status];
    if (!contract) throw new Error(`${route.operationId} answered undocumented status ${result.status}`);
    if (result.stream) return sendStream(res, result.status, result.stream, result.headers);
    if (result.headers) res.set(result.headers);
    if (result.body === undefined) res.status(result.status).end();
    else if (result.body instanceof Uint8Array) res.status(result.status).send(Buffer.from(result.body));
    else {
      // Responses are written through their contract schema, so internal fields can never leak.
      const text = () => jsonAnswer(contract.schema, result.body, { check: checkResponses });
      if (route.conditional && result.status === 200) sendJsonConditionally(req, res, text, result.entityTag);
      else sendJsonText(res, result.status, text());
    }
  };
}

/**
 * Writes streamed JSON text as it comes, waiting for the client to take each piece. The first
 * piece is read before the status is sent, so a refusal found while it is prepared (an unknown
 * workspace, an entry the import would refuse) is still an ordinary error answer. A failure
 * after that can only cut the answer short, which the client sees as JSON that does not parse.
 */
async function sendStream(res: Response, status: number, stream: AsyncIterable<string>, headers?: Record<string, string>): Promise<void> {
  const pieces = stream[Symbol.asyncIterator]();
  let next = await pieces.next();
  if (headers) res.set(headers);
  res.status(status).type("application/json");
  try {
    while (!next.done) {
      if (res.destroyed) break;
      if (!res.write(next.value)) await drainedOrClosed(res);
      next = await pieces.next();
    }
  } finally {
    // A client that went away: let the reader close what it holds.
    if (!next.done) await pieces.return?.();
  }
  res.end();
}

/** Until the client has taken what was written, or has gone; the listeners go with the wait. */
function drainedOrClosed(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}
