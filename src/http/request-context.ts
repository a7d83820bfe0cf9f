import { randomUUID } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import type { Logger } from "../lib/logger";
import { DOWNLOADS_PATH } from "../storage/database-file-storage";
import { rejectMalformedQuery } from "./percent-encoding";

const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;

/** A sane incoming X-Request-Id (a proxy's or a client's), or a new one. */
function requestIdOf(req: Request): string {
  const incoming = req.headers["x-request-id"];
  return typeof incoming === "string" && ACCEPTABLE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

// Routing ignores case and repeated slashes, so the redaction must too.
const DOWNLOAD_TOKEN = new RegExp(`^/+${DOWNLOADS_PATH.slice(1)}/+[^/]+`, "i");

/**
 * The path of a request URL as it may be logged: no query string (it may carry secrets), and the
 * token of `/downloads/{token}`, which is the credential (anyone holding the link can fetch the
 * file), replaced.
 */
export function loggablePath(url: string): string {
  const query = url.indexOf("?");
  const path = query < 0 ? url : url.slice(0, query);
  return DOWNLOAD_TOKEN.test(path) ? path.replace(DOWNLOAD_TOKEN, `${DOWNLOADS_PATH}/[redacted]`) : path;
}

/**
 * What every request gets before it is routed, in one middleware (each layer Express passes a
 * request through costs a dispatch): its id (X-Request-Id), its one JSON log line when it is
 * answered, and the refusal of a query string that is not percent-encoded UTF-8
 * (rejectMalformedQuery, after the id and the log line, so that its 400 has both).
 */
export function requestContext(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    const id = requestIdOf(req);
    res.locals.requestId = id;
    res.setHeader("X-Request-Id", id);
    res.on("finish", () => logRequest(logger, req, res, performance.now() - started));
    rejectMalformedQuery(req, res, next);
  };
}

/** One JSON line per request. The path only: query strings and headers may carry secrets. */
function logRequest(logger: Logger, req: Request, res: Response, durationMs: number): void {
  logger.info(
    {
      requestId: res.locals.requestId,
      method: req.method,
      path: loggablePath(req.originalUrl),
      status: res.statusCode,
      // The client's address as TRUST_PROXY resolves it (the router's own address without it).
      ip: req.ip,
      durationMs,
    },
    "request",
  );
}
