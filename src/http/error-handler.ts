import type { NextFunction, Request, Response } from "express";
import type { Logger } from "../lib/logger";
import { ApiError } from "./api-error";
import { finalClientError } from "./client-error";
import { loggablePath } from "./request-context";

/** The one place errors become responses: `{error, code}`, never a stack trace. */
export function errorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const apiError = finalClientError(error);
    if (apiError) {
      res.set(apiError.headers).status(apiError.status).json({ error: apiError.message, code: apiError.code });
      return;
    }
    logger.error(
      { requestId: res.locals.requestId, method: req.method, path: loggablePath(req.originalUrl), err: error },
      "unhandled error",
    );
    res.status(500).json({
      error: `Internal server error; quote request id ${res.locals.requestId} when reporting it`,
      code: "internal",
    });
  };
}

export function notFoundHandler(req: Request, _res: Response, next: NextFunction) {
  next(new ApiError("not_found", `No route for ${req.method} ${req.path}`));
}
