import { z } from "./zod";

type Issue = z.core.$ZodIssue;

/**
 * Schemas whose refusal names every problem (up to `max`) rather than the first: a document of
 * many entries, such as an import, is then put right in one pass instead of one problem a try.
 */
export const reportsEveryIssue = z.registry<{ max: number }>();

/** `dataSources[2].connectorType` from ["dataSources", 2, "connectorType"]. */
export function formatPath(prefix: string | undefined, path: readonly PropertyKey[]): string {
  let text = prefix ?? "";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else text += text === "" ? String(segment) : `.${String(segment)}`;
  }
  return text;
}

function describeReceived(input: unknown): string {
  if (input === null) return "null";
  if (Array.isArray(input)) return "an array";
  if (typeof input === "object") return "an object";
  if (typeof input === "string") return "a string";
  if (typeof input === "number") return Number.isNaN(input) ? "NaN" : "a number";
  if (typeof input === "boolean") return "a boolean";
  return typeof input;
}

const ARTICLE: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "a boolean",
  array: "an array",
  object: "an object",
};

/** One sentence a developer can act on, e.g. `confidence: must be at most 1`. */
export function describeIssue(issue: Issue): string {
  switch (issue.code) {
    case "invalid_type": {
      if (issue.input === undefined) return "is required";
      const expected = ARTICLE[issue.expected] ?? issue.expected;
      return `must be ${expected}, not ${describeReceived(issue.input)}`;
    }
    case "too_small": {
      const minimum = Number(issue.minimum);
      if (issue.origin === "string") return minimum <= 1 ? "must not be empty" : `must be at least ${minimum} characters`;
      if (issue.origin === "array") return `must have at least ${minimum} item${minimum === 1 ? "" : "s"}`;
      return issue.inclusive === false ? `must be greater than ${minimum}` : `must be at least ${minimum}`;
    }
    case "too_big": {
      const maximum = Number(issue.maximum);
      if (issue.origin === "string") return `must be at most ${maximum} characters`;
      if (issue.origin === "array") return `must have at most ${maximum} items`;
      return issue.inclusive === false ? `must be less than ${maximum}` : `must be at most ${maximum}`;
    }
    case "invalid_value":
      return `must be one of: ${issue.values.map((value) => String(value)).join(", ")}`;
    case "invalid_union":
      return issue.message && !issue.message.startsWith("Invalid input") ? issue.message : "has an unsupported shape";
    case "invalid_format":
      return `must be a valid ${issue.format}`;
    default:
      return issue.message;
  }
}

/**
 * The message of the first issue, with its path. Custom messages (given with `{ error }`) are used
 * as they are; Zod's generic ones are rephrased.
 */
export function describeFirstIssue(error: z.ZodError, prefix?: string): string {
  const issue = error.issues[0];
  return issue ? describeIssueAt(issue, formatPath(prefix, issue.path)) : "invalid input";
}

/**
 * What `schema` refused, as one sentence: the first issue, or, for a schema in
 * `reportsEveryIssue`, the first of each field (`3 problems: a: …; b: …; c: …`).
 */
export function describeRefusal(schema: z.ZodType, error: z.ZodError, prefix?: string): string {
  const every = reportsEveryIssue.get(schema);
  if (!every) return describeFirstIssue(error, prefix);
  // One problem per field, its first: a value a format refuses may break a later check too.
  const firstAt = new Map<string, Issue>();
  for (const issue of error.issues) {
    const where = formatPath(prefix, issue.path);
    if (!firstAt.has(where)) firstAt.set(where, issue);
  }
  if (firstAt.size <= 1) return describeFirstIssue(error, prefix);
  const described = [...firstAt].slice(0, every.max).map(([where, issue]) => describeIssueAt(issue, where));
  const more = firstAt.size - described.length;
  return `${firstAt.size} problems: ${described.join("; ")}${more > 0 ? `; and ${more} more` : ""}`;
}

/** One issue as `where: what`, for a caller that names the place itself (a form names only its own fields). */
export function describeIssueAt(issue: Issue, where: string): string {
  const isCustomMessage = issue.code === "custom" || !/^(Invalid|Too (small|big)|Expected)/.test(issue.message);
  const what = isCustomMessage ? issue.message : describeIssue(issue);
  return where ? `${where}: ${what}` : what;
}
