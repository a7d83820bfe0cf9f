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
  if (isDatabaseUnavailable(error)) {
    // The refusal of a workspace whose node is away names the node; any other says what may be away.
    const message = adapterMessage(error);
    return new DomainError("unavailable", message?.startsWith(NODE_UNREACHABLE) ? message : DATABASE_UNAVAILABLE, { cause: error });
  }
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

const DATABASE_UNAVAILABLE =
  "The workspace's data cannot be reached right now: the database, or the node that holds the workspace, is not answering; retry after the Retry-After seconds (a push retried with its Idempotency-Key is stored once)";

// SQLSTATEs of a database that is away rather than of a statement at fault: class 08 (connection
// exception; Citus's "connection to the remote node … failed" when a worker is down), 57P01–57P03
// (terminated by a shutdown or restart, or not accepting connections yet), 53300 (no connection
// slot left) and 57014 (the statement timed out).
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53300|57014)$/;
// Node's socket errors, and pg's own words for a connection that closed or never opened in time.
const UNREACHABLE_SOCKET = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "ENOTFOUND"]);
const UNREACHABLE_MESSAGE = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;
// How Prisma's driver adapters name the same (@prisma/driver-adapter-utils), and its own codes for
// a server it cannot reach (P1001, P1002), that timed out (P1008) or closed the connection (P1017),
// and a pool with no connection free in time (P2024).
const UNREACHABLE_ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections", "TlsConnectionError"]);
const UNREACHABLE_PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);

/**
 * Whether an error says the database (or, on Citus, a node of it) could not be reached or did not
 * answer in time, rather than that the statement was refused: the request may succeed when
 * retried (a push with its Idempotency-Key is then stored once).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (isShardMoved(error) || isNodeConnectionLost(error)) return true;
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    if (UNREACHABLE_PRISMA_CODES.has(error.code)) return true;
    const cause = (error.meta?.driverAdapterError as { cause?: { kind?: unknown; originalCode?: unknown } } | undefined)?.cause;
    if (typeof cause?.kind === "string" && UNREACHABLE_ADAPTER_KINDS.has(cause.kind)) return true;
    return typeof cause?.originalCode === "string" && UNAVAILABLE_SQLSTATE.test(cause.originalCode);
  }
  if (error instanceof Prisma.PrismaClientInitializationError) return true;
  // Read by shape, not `instanceof Error`: a socket's error is made by Node's own realm.
  if (typeof error !== "object" || error === null) return false;
  const sqlState = driverErrorSqlState(error);
  if (sqlState) return UNAVAILABLE_SQLSTATE.test(sqlState);
  const { code, message } = error as { code?: unknown; message?: unknown };
  return (typeof code === "string" && UNREACHABLE_SOCKET.has(code)) || (typeof message === "string" && UNREACHABLE_MESSAGE.test(message));
}

/**
 * A workspace's statement refused before it was sent because the node holding the workspace is
 * known to be away (cluster-nodes.ts). Shaped as the driver's connection failure (SQLSTATE
 * 08006), so that it reaches the domain through Prisma as any other.
 */
export class NodeUnreachableError extends Error {
  readonly code = "08006";
  readonly severity = "ERROR";
  constructor(readonly node: string) {
    super(`${NODE_UNREACHABLE} (${node}) is not answering; retry after the Retry-After seconds (a push retried with its Idempotency-Key is stored once)`);
    this.name = "NodeUnreachableError";
  }
}

const NODE_UNREACHABLE = "The workspace's data cannot be reached right now: the database node that holds it";

// Citus's words (metadata_cache.c) for a statement routed to a shard that a split or move has just
// replaced: a worker's trigger that writes to another table was planned before the switch-over and
// run after it. The statement failed whole; sent again it is routed to the shard that holds the rows now.
const SHARD_MOVED = /^could not find valid entry for shard \d+$/;

/** Whether a statement failed because the shard it was routed to was split or moved meanwhile (Citus): it may simply be sent again. */
export function isShardMoved(error: unknown): boolean {
  return internalErrorSays(error, SHARD_MOVED);
}

// The words of a Citus coordinator whose connection to a worker broke during a statement or its
// commit (a worker killed while a transaction was open on it). Citus passes libpq's own message on
// with SQLSTATE XX000 when the worker sent none (remote_commands.c, ReportResultError), and raises
// its own, also without a code, for a transaction that needed the connection
// (remote_transaction.c, transaction_management.c, placement_connection.c). A write on each
// worker, then the second worker killed before COMMIT, answered "SSL SYSCALL error: EOF detected"
// over SSL (its PREPARE failed); a write on that worker alone, "could not commit transaction for
// shard … on at least one active node" (its COMMIT failed, so whether the worker committed is not
// known: a push retried with its Idempotency-Key is stored once either way). The schema has no
// deferred constraint, the other cause Citus gives that message for.
// tests/citus/worker-outage.test.ts has both cases.
const NODE_CONNECTION_LOST =
  /^(SSL SYSCALL error: EOF detected|SSL SYSCALL error: Connection reset|server closed the connection unexpectedly|connection not open|no connection to the server|could not (receive data from|send data to) server|failure on connection marked as essential: |could not commit transaction (for shard \d+ )?on (any|at least one) active node)/;

/** Whether a statement failed because a Citus worker it was using went away under it: the database is away, not the statement at fault. */
function isNodeConnectionLost(error: unknown): boolean {
  return internalErrorSays(error, NODE_CONNECTION_LOST);
}

/** Whether an error is the server's internal error (XX000, which Citus uses for its own refusals) with words that `words` matches. */
function internalErrorSays(error: unknown, words: RegExp): boolean {
  const sqlState = error instanceof Prisma.PrismaClientKnownRequestError ? driverSqlState(error) : driverErrorSqlState(error);
  return sqlState === "XX000" && words.test(adapterMessage(error) ?? "");
}

export type UnavailableCause = "node_unreachable" | "statement_timeout" | "connection" | "shard_moved";

/** Why an operation was answered unavailable, for the metrics (undefined: it was not). */
export function unavailableCause(error: unknown): UnavailableCause | undefined {
  if (error instanceof DomainError) return error.kind === "unavailable" ? unavailableCause(error.cause) ?? "connection" : undefined;
  if (error instanceof NodeUnreachableError) return "node_unreachable";
  if (!isDatabaseUnavailable(error)) return undefined;
  if (isShardMoved(error)) return "shard_moved";
  if (adapterMessage(error)?.startsWith(NODE_UNREACHABLE)) return "node_unreachable";
  const sqlState =
    error instanceof Prisma.PrismaClientKnownRequestError ? driverSqlState(error) : driverErrorSqlState(error);
  return sqlState === "57014" ? "statement_timeout" : "connection";
}

const TOO_LARGE = "A value in the request is too large or out of range to store or index";

/** Whether a write failed on a unique key: another writer got there first. */
export function isUniqueViolation(error: unknown): boolean {
  return (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") || driverErrorSqlState(error) === "23505";
}

/** The SQLSTATE of an error from the driver itself (`pg`'s and PGlite's errors both carry it as `code`, with a `severity`). */
export function driverErrorSqlState(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("severity" in error)) return undefined;
  const { code } = error as { code?: unknown };
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** The driver's own message, through Prisma's adapter or as it came. */
function adapterMessage(error: unknown): string | undefined {
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    const cause = (error.meta?.driverAdapterError as { cause?: { originalMessage?: unknown } } | undefined)?.cause;
    return typeof cause?.originalMessage === "string" ? cause.originalMessage : undefined;
  }
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === "string" ? message : undefined;
}

function describeTarget(error: Prisma.PrismaClientKnownRequestError): string {
  const model = typeof error.meta?.modelName === "string" ? error.meta.modelName : "record";
  return `${model.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase()} key`;
}

function driverSqlState(error: Prisma.PrismaClientKnownRequestError): string | undefined {
  const cause = (error.meta?.driverAdapterError as { cause?: { originalCode?: unknown } } | undefined)?.cause;
  return typeof cause?.originalCode === "string" ? cause.originalCode : undefined;
}
