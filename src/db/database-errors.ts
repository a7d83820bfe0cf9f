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
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return undefined;
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
  if (sqlState && CLIENT_VALUE_SQLSTATE.test(sqlState)) {
    return new DomainError("invalid", "A value in the request is too large or out of range to store or index");
  }
  return undefined;
}

/** Whether a write failed on a unique key: another writer got there first. */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}

function describeTarget(error: Prisma.PrismaClientKnownRequestError): string {
  const model = typeof error.meta?.modelName === "string" ? error.meta.modelName : "record";
  return `${model.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase()} key`;
}

function driverSqlState(error: Prisma.PrismaClientKnownRequestError): string | undefined {
  const cause = (error.meta?.driverAdapterError as { cause?: { originalCode?: unknown } } | undefined)?.cause;
  return typeof cause?.originalCode === "string" ? cause.originalCode : undefined;
}
