import type { z } from "zod";

type Issue = z.core.$ZodIssue;

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

/** One issue as `where: what`, for a caller that names the place itself (a form names only its own fields). */
export function describeIssueAt(issue: Issue, where: string): string {
  const isCustomMessage = issue.code === "custom" || !/^(Invalid|Too (small|big)|Expected)/.test(issue.message);
  const what = isCustomMessage ? issue.message : describeIssue(issue);
  return where ? `${where}: ${what}` : what;
}
