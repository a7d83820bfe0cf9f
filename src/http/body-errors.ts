import { ApiError } from "./api-error";

export const JSON_BODY_LIMIT = "1mb";

interface BodyParserError {
  type?: string;
  status?: number;
  expose?: boolean;
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
