/**
 * The ways an operation refuses or fails that its caller can act on, in the domain's own terms.
 * Services throw these and know nothing of transports; each adapter says them its own way, all
 * through one translation (src/http/client-error.ts): an HTTP status and code, an MCP tool error,
 * a console page.
 */
export const DOMAIN_ERROR_KINDS = [
  /** The caller's input cannot be used as it is. */
  "invalid",
  /** The credentials presented are not (or no longer) valid. */
  "unauthenticated",
  /** Valid credentials, or a signed link, that do not allow this. */
  "forbidden",
  "not_found",
  /** The state changed under the caller, or does not allow the change (already reviewed, written concurrently). */
  "conflict",
  /** Well-formed input that contradicts what the caller sent before (an Idempotency-Key reused for another body). */
  "unprocessable",
  /** A service this one depends on (file storage) failed; retrying later may succeed. */
  "dependency_failed",
  /** The data the operation needs cannot be reached now (the database, or the node holding the workspace, is down or not answering); retrying shortly may succeed. */
  "unavailable",
] as const;

export type DomainErrorKind = (typeof DOMAIN_ERROR_KINDS)[number];

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "DomainError";
  }
}

export const invalid = (message: string) => new DomainError("invalid", message);
export const notFound = (message: string) => new DomainError("not_found", message);
export const conflict = (message: string) => new DomainError("conflict", message);
