import { randomUUID } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import type { Logger } from "../lib/logger";

const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;

/** Honours a sane incoming X-Request-Id (a proxy's or a client's) and otherwise makes one. */
export function requestId(req: Request, res: Response, next: NextFunction) {
  const incoming = req.get("x-request-id");
  const id = incoming && ACCEPTABLE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.locals.requestId = id;
  res.set("X-Request-Id", id);
  next();
}

/**
 * The path as it may be logged: the token of `/downloads/{token}` is the credential (anyone holding
 * the link can fetch the file), so it is replaced.
 */
export function loggablePath(path: string): string {
  return path.replace(/^\/downloads\/[^/?]+/, "/downloads/[redacted]");
}

/** One JSON line per request. The path only: query strings and headers may carry secrets. */
export function requestLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      logger.info(
        {
          requestId: res.locals.requestId,
          method: req.method,
          path: loggablePath(req.originalUrl.split("?")[0]!),
          status: res.statusCode,
          // The client's address as TRUST_PROXY resolves it (the router's own address without it).
          ip: req.ip,
          durationMs: Number(process.hrtime.bigint() - started) / 1e6,
        },
        "request",
      );
    });
    next();
  };
}
