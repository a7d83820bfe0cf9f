import type { z } from "zod";
import type { ApiKeyPrincipal } from "../auth/principal";
import type { Scope } from "../auth/scopes";
import { z as zod } from "../contracts/zod";
import type { DomainErrorKind } from "../domain/errors";
import type { Services } from "../services";

type AnyObject = z.ZodObject<z.ZodRawShape>;

/**
 * Who may run an operation: a workspace key with a scope (the workspace is the key's), the admin
 * token, or anyone. The review console runs some admin operations for a signed-in reviewer, only
 * ever in a workspace it has checked is one of theirs.
 */
export type OperationAccess = { kind: "workspace"; scope: Scope } | { kind: "admin" } | { kind: "public" };

/** What an operation may know about the call, whichever adapter received it. */
export interface OperationContext<A extends OperationAccess = OperationAccess> {
  principal: A extends { kind: "workspace" } ? ApiKeyPrincipal : undefined;
  services: Services;
  /** The address links in the answer are made absolute against. */
  baseUrl: string;
}

/** The output of an operation whose success is its whole answer (REST: 204, no body). */
export const NO_CONTENT = zod.undefined();

/**
 * An answer written while it is read, for answers too large to hold in memory (a workspace
 * export): JSON text in pieces. Its schema is still the operation's `output`, for the document;
 * the operation parses each item through its own schema as it goes, since the whole is never held.
 */
export class JsonStream {
  constructor(readonly chunks: AsyncIterable<string>) {}
}

/** A refusal the operation documents: when it happens, and a sentence it says then. */
export interface DocumentedError {
  description: string;
  example?: string;
}

/**
 * One operation, declared once for every adapter: who may run it, the input it takes (one object:
 * the REST adapter says which fields travel in the path, query, headers or body; the MCP adapter
 * takes it as the tool's arguments), the service call, the answer on the wire and its schema, and
 * the refusals it documents. Adapters add only what belongs to their transport.
 */
export interface Operation<A extends OperationAccess = OperationAccess, I extends AnyObject = AnyObject, O extends z.ZodType = z.ZodType, R = unknown> {
  /** Unique, camelCase: REST's operationId. */
  name: string;
  summary: string;
  description?: string;
  access: A;
  input: I;
  output: O;
  /** The service call. Its result may carry what only a transport shows (a replay flag becomes a header). */
  run(input: z.output<I>, ctx: OperationContext<A>): Promise<R>;
  /**
   * The answer on the wire; left out where the service's result already is (or, for NO_CONTENT,
   * where there is none). Every adapter parses it through `output` before sending it, so a field
   * the contract does not name never leaves and a wrong one is a fault of ours, not the caller's.
   */
  toWire?(result: R, ctx: OperationContext<A>): unknown;
  errors?: Partial<Record<DomainErrorKind, DocumentedError>>;
}

export function defineOperation<A extends OperationAccess, I extends AnyObject, O extends z.ZodType, R>(operation: Operation<A, I, O, R>): Operation<A, I, O, R> {
  return operation;
}

/** An operation of any shape, as the lists and adapters hold them. */
export type AnyOperation = Operation<OperationAccess, AnyObject, z.ZodType, any>;

/** The wire form of an operation's result (the result itself where the operation declares none). */
export function wireFormOf<A extends OperationAccess, R>(operation: Operation<A, AnyObject, z.ZodType, R>, result: R, ctx: OperationContext<A>): unknown {
  return operation.toWire ? operation.toWire(result, ctx) : result;
}

/** Runs an operation and gives its answer in wire form, parsed through its output schema. */
export async function answer<A extends OperationAccess, I extends AnyObject, O extends z.ZodType, R>(
  operation: Operation<A, I, O, R>,
  input: z.output<I>,
  ctx: OperationContext<A>,
): Promise<{ result: R; body: z.output<O> }> {
  const result = await operation.run(input, ctx);
  return { result, body: operation.output.parse(wireFormOf(operation, result, ctx)) };
}
