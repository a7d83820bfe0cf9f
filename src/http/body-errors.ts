import type { NextFunction, Request, Response } from "express";
import { ApiError } from "./api-error";

export const JSON_BODY_LIMIT = "1mb";

interface BodyParserError {
  type?: string;
  status?: number;
  expose?: boolean;
}

const CHARSET_PARAMETER = /;\s*charset\s*=\s*"?([^";\s]*)"?/i;

/**
 * Refuses a JSON body declared in another charset than UTF-8 before it is read. body-parser
 * decodes any utf-* charset, so a UTF-16 body would be decoded and then refused for the garbled
 * text it became, which names neither the charset nor the fix; RFC 8259 requires UTF-8 anyway.
 */
export function refuseNonUtf8Charset(req: Request, _res: Response, next: NextFunction): void {
  const charset = CHARSET_PARAMETER.exec(req.get("content-type") ?? "")?.[1];
  if (charset !== undefined && req.is("application/json") && !/^utf-?8$/i.test(charset)) {
    throw new ApiError("unsupported_media_type", `Charset "${charset}" is not supported: send the JSON body as utf-8 (Content-Type: application/json; charset=utf-8)`);
  }
  next();
}

/** Turns body-parser's and the router's client errors into ApiErrors with actionable messages. */
export function toClientApiError(error: unknown): ApiError | undefined {
  const err = error as BodyParserError & Error;
  switch (err?.type) {
    case "entity.parse.failed":
      return new ApiError("bad_request", `Request body is not valid JSON: ${err.message}`);
    case "entity.too.large":
      return new ApiError("payload_too_large", "Request body is larger than the 1 MiB limit");
    case "charset.unsupported":
    case "encoding.unsupported":
      return new ApiError("unsupported_media_type", err.message);
    case "request.aborted":
      return new ApiError("bad_request", "Request body was aborted by the client");
    case "request.size.invalid":
      return new ApiError("bad_request", "Request body length did not match Content-Length");
  }
  const status = err?.status;
  if (typeof status === "number" && status >= 400 && status < 500) {
    if (err instanceof URIError || /decode/i.test(err.message)) {
      return new ApiError("bad_request", "Request path contains invalid percent-encoding");
    }
    return new ApiError(status === 404 ? "not_found" : "bad_request", err.expose ? err.message : "Bad request");
  }
  return undefined;
}
