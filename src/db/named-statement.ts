import { createHash } from "node:crypto";
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

/** The values a named statement takes: what has an exact SQL literal, arrays of text or numbers included. */
export type NamedStatementParam = string | number | boolean | Date | null | ReadonlyArray<string | number | null>;

const NAME = /^[a-z][a-z0-9_]{0,62}$/;

export function namedStatement(name: string, text: string): NamedStatement {
  if (!NAME.test(name)) throw new Error(`not a statement name: ${JSON.stringify(name)}`);
  return { name, text };
}

/**
 * A statement named by its text (`prefix` and a digest of it), for statements a module builds from
 * parts rather than writes once: the same text always gets the same name, another text another.
 * Only for texts of a bounded number of shapes, their values all parameters: each name is
 * prepared once per connection and kept.
 */
export function statementNamedByText(prefix: string, text: string): NamedStatement {
  return namedStatement(`${prefix}_${createHash("sha256").update(text).digest("hex").slice(0, 24)}`, text);
}

/** A finite number as SQL writes it. */
function numberLiteral(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`a named statement's number must be finite: ${value}`);
  return String(value);
}

/** A text without NUL (which no statement or text value can hold). */
function checkedText(text: string): string {
  if (text.includes("\u0000")) throw new Error("a named statement's value may not hold a NUL character");
  return text;
}

/** An array as the text PostgreSQL reads an array from (`{"a","b",NULL}`), each element quoted. */
function arrayText(values: ReadonlyArray<string | number | null>): string {
  const elements = values.map((value) =>
    value === null ? "NULL" : typeof value === "number" ? numberLiteral(value) : `"${checkedText(value).replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`,
  );
  return `{${elements.join(",")}}`;
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
  if (typeof value === "number") return numberLiteral(value);
  if (value instanceof Date) return escapeLiteral(value.toISOString());
  // An array's text is cast to the parameter's array type, which PREPARE inferred.
  if (Array.isArray(value)) return escapeLiteral(arrayText(value as ReadonlyArray<string | number | null>));
  if (typeof value !== "string") throw new Error(`a named statement's value has no SQL literal: ${typeof value}`);
  return escapeLiteral(checkedText(value));
}
