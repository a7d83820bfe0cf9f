import { toDomainError, unavailableCause } from "../db/database-errors";
import { countUnavailable } from "../telemetry/instruments";
import { DomainError, type DomainErrorKind } from "../domain/errors";
import { ApiError, type ErrorCode } from "./api-error";
import { toClientApiError } from "./body-errors";

/** Each domain error kind's wire code (and so its HTTP status, ERROR_STATUS). */
export const WIRE_CODE_OF: Record<DomainErrorKind, ErrorCode> = {
  invalid: "bad_request",
  unauthenticated: "unauthorized",
  forbidden: "forbidden",
  not_found: "not_found",
  conflict: "conflict",
  unprocessable: "unprocessable",
  dependency_failed: "bad_gateway",
  unavailable: "service_unavailable",
};

/** Seconds a client is asked to wait before retrying what the database could not serve: a restart or a node's return takes about this long. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * The one translation of an error into what a client is told, for every adapter (REST's
 * `{error, code}`, an MCP tool error, a console page): a domain error by its kind, a transport
 * error as it is, a request the parser refused, a database error the caller caused. Undefined for
 * anything else, which is a fault of ours: logged, and answered without detail.
 */
export function toClientError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  const domain = error instanceof DomainError ? error : toDomainError(error);
  if (domain) {
    const headers = domain.kind === "unavailable" ? { "Retry-After": String(UNAVAILABLE_RETRY_AFTER_SECONDS) } : undefined;
    return new ApiError(WIRE_CODE_OF[domain.kind], domain.message, headers);
  }
  return toClientApiError(error);
}

/**
 * The answer an adapter gives at last (REST's error handler, an MCP tool error, a console page):
 * toClientError, with each 503 counted by its cause. Only there, so that each answer counts once.
 */
export function finalClientError(error: unknown): ApiError | undefined {
  const answer = toClientError(error);
  if (answer?.status === 503) {
    const cause = unavailableCause(error);
    if (cause) countUnavailable(cause);
  }
  return answer;
}
