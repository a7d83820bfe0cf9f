import { Prisma } from "../generated/prisma/client";
import { ApiError } from "./api-error";

// SQLSTATE classes a client's value can cause: 22 (data exception: out of range, invalid format)
// and 54 (program limit exceeded: a tsvector or index row too large).
const CLIENT_VALUE_SQLSTATE = /^(22|54)/;

/**
 * The one mapping of database errors to responses: a unique violation is a 409 (a concurrent
 * request wrote the same name first; retrying succeeds or tells why not), a missing row a 404, and
 * a value the database cannot hold a 400. Anything else stays a 500.
 */
export function toDatabaseApiError(error: unknown): ApiError | undefined {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return undefined;
  switch (error.code) {
    case "P2002":
      return new ApiError("conflict", `A concurrent request wrote the same ${describeTarget(error)} first; retry the request`);
    case "P2025":
      return new ApiError("not_found", "The record this request refers to no longer exists");
    case "P2000":
    case "P2007":
    case "P2020":
    case "P2033":
      return new ApiError("bad_request", "A value in the request is out of the range the database can store");
  }
  const sqlState = driverSqlState(error);
  if (sqlState && CLIENT_VALUE_SQLSTATE.test(sqlState)) {
    return new ApiError("bad_request", "A value in the request is too large or out of range to store or index");
  }
  return undefined;
}

function describeTarget(error: Prisma.PrismaClientKnownRequestError): string {
  const model = typeof error.meta?.modelName === "string" ? error.meta.modelName : "record";
  return `${model.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase()} key`;
}

function driverSqlState(error: Prisma.PrismaClientKnownRequestError): string | undefined {
  const cause = (error.meta?.driverAdapterError as { cause?: { originalCode?: unknown } } | undefined)?.cause;
  return typeof cause?.originalCode === "string" ? cause.originalCode : undefined;
}
