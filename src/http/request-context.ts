import { randomUUID } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import type { Logger } from "../lib/logger";
import { DOWNLOADS_PATH } from "../storage/database-file-storage";

const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;

/** Honours a sane incoming X-Request-Id (a proxy's or a client's) and otherwise makes one. */
export function requestId(req: Request, res: Response, next: NextFunction) {
  const incoming = req.get("x-request-id");
  const id = incoming && ACCEPTABLE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.locals.requestId = id;
  res.set("X-Request-Id", id);
  next();
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

/** One JSON line per request. The path only: query strings and headers may carry secrets. */
export function requestLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    res.on("finish", () => {
      logger.info(
        {
          requestId: res.locals.requestId,
          method: req.method,
          path: loggablePath(req.originalUrl),
          status: res.statusCode,
          // The client's address as TRUST_PROXY resolves it (the router's own address without it).
          ip: req.ip,
          durationMs: performance.now() - started,
        },
        "request",
      );
    });
    next();
  };
}
