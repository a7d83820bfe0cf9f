import { DomainError } from "../domain/errors";
import { Prisma } from "../generated/prisma/client";

// SQLSTATE classes a client's value can cause: 22 (data exception: out of range, invalid format)
// and 54 (program limit exceeded: a tsvector or index row too large).
const CLIENT_VALUE_SQLSTATE = /^(22|54)/;

/**
 * The one reading of database errors in the domain's terms: a unique violation is a conflict (a
 * concurrent request wrote the same name first; retrying succeeds or tells why not), a missing row
 * not found, and a value the database cannot hold invalid input. Anything else is not the
 * caller's to act on (undefined).
 */
export function toDomainError(error: unknown): DomainError | undefined {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) {
    // A statement run through the driver itself (postgres-executor.ts, the embedded engine).
    const sqlState = driverErrorSqlState(error);
    if (sqlState && CLIENT_VALUE_SQLSTATE.test(sqlState)) return new DomainError("invalid", TOO_LARGE);
    return undefined;
  }
  switch (error.code) {
    case "P2002":
      return new DomainError("conflict", `A concurrent request wrote the same ${describeTarget(error)} first; retry the request`);
    case "P2025":
      return new DomainError("not_found", "The record this request refers to no longer exists");
    case "P2000":
    case "P2007":
    case "P2020":
    case "P2033":
      return new DomainError("invalid", "A value in the request is out of the range the database can store");
  }
  const sqlState = driverSqlState(error);
  if (sqlState && CLIENT_VALUE_SQLSTATE.test(sqlState)) return new DomainError("invalid", TOO_LARGE);
  return undefined;
}

const TOO_LARGE = "A value in the request is too large or out of range to store or index";

/** Whether a write failed on a unique key: another writer got there first. */
export function isUniqueViolation(error: unknown): boolean {
  return (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") || driverErrorSqlState(error) === "23505";
}

/** The SQLSTATE of an error from the driver itself (`pg`'s and PGlite's errors both carry it as `code`, with a `severity`). */
function driverErrorSqlState(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("severity" in error)) return undefined;
  const { code } = error as { code?: unknown };
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

function describeTarget(error: Prisma.PrismaClientKnownRequestError): string {
  const model = typeof error.meta?.modelName === "string" ? error.meta.modelName : "record";
  return `${model.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase()} key`;
}

function driverSqlState(error: Prisma.PrismaClientKnownRequestError): string | undefined {
  const cause = (error.meta?.driverAdapterError as { cause?: { originalCode?: unknown } } | undefined)?.cause;
  return typeof cause?.originalCode === "string" ? cause.originalCode : undefined;
}
