import { escapeLiteral } from "pg";

/**
 * A statement a request path runs often enough that its parsing and planning are worth keeping:
 * each connection prepares it once under its name and then only executes it. On the embedded
 * engine a fetch's read took 100 µs that way against 265 µs as an unnamed statement with
 * parameters (docs/performance.md); on PostgreSQL it spares the server the same work.
 *
 * The text must take its values as $1, $2…, never change under one name, and select expressions
 * whose types do not follow a table's columns (a prepared statement whose result type changes
 * fails until it is prepared again).
 */
export interface NamedStatement {
  readonly name: string;
  readonly text: string;
}

/** The values a named statement takes: what has an exact SQL literal. */
export type NamedStatementParam = string | number | boolean | Date | null;

const NAME = /^[a-z][a-z0-9_]{0,62}$/;

export function namedStatement(name: string, text: string): NamedStatement {
  if (!NAME.test(name)) throw new Error(`not a statement name: ${JSON.stringify(name)}`);
  return { name, text };
}

/**
 * `value` as an SQL literal, for `EXECUTE name(…)` on the embedded engine, whose driver has no
 * named statements. A string is quoted by `pg`'s escapeLiteral (libpq's rules). A NUL cannot be
 * in a statement's text nor in a text value, so it is refused here: the request layer refuses it
 * first (src/http/text-safety.ts: a 404 for an id in a path, a 400 elsewhere).
 */
export function sqlLiteral(value: NamedStatementParam): string {
  if (value === null) return "NULL";
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`a named statement's number must be finite: ${value}`);
    return String(value);
  }
  const text = value instanceof Date ? value.toISOString() : value;
  if (text.includes("\u0000")) throw new Error("a named statement's value may not hold a NUL character");
  return escapeLiteral(text);
}
