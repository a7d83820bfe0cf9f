import { formatPath } from "../contracts/issues";

export const MAX_JSON_DEPTH = 64;

export interface UnstorableInput {
  path: string;
  problem: string;
}

/**
 * Finds the first value Postgres could not store losslessly: text with a NUL character (rejected
 * in text and jsonb) or with a lone UTF-16 surrogate (silently replaced when encoded to UTF-8), a
 * number beyond double range, and nesting deeper than MAX_JSON_DEPTH. Walks iteratively so hostile depth cannot overflow the stack.
 */
export function findUnstorableInput(root: unknown, prefix?: string): UnstorableInput | undefined {
  if (isStorableAndFlat(root)) return undefined;
  const stack: Array<{ value: unknown; path: PropertyKey[] }> = [{ value: root, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    const problem = describeUnstorableText(value);
    if (problem) return { path: formatPath(prefix, path), problem };
    if (value === null || typeof value !== "object") continue;
    if (path.length >= MAX_JSON_DEPTH) {
      return { path: formatPath(prefix, path), problem: `is nested deeper than ${MAX_JSON_DEPTH} levels` };
    }
    const entries = Array.isArray(value) ? value.map((item, index) => [index, item] as const) : Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i]!;
      if (typeof key === "string") {
        const keyProblem = describeUnstorableText(key);
        if (keyProblem) return { path: formatPath(prefix, path), problem: `has a key that ${keyProblem}` };
      }
      stack.push({ value: item, path: [...path, key] });
    }
  }
  return undefined;
}

/**
 * Whether `value` is a storable value, or an object whose values all are, nothing nested: most
 * input (a path's parameters, a query, headers), cleared without the walk's stack and paths,
 * which only a refusal needs.
 */
function isStorableAndFlat(value: unknown): boolean {
  if (value === null || typeof value !== "object") return describeUnstorableText(value) === undefined;
  if (Array.isArray(value)) return false;
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== null && typeof item === "object") return false;
    if (describeUnstorableText(key) !== undefined || describeUnstorableText(item) !== undefined) return false;
  }
  return true;
}

function describeUnstorableText(value: unknown): string | undefined {
  // JSON.parse turns 1e400 into Infinity, which JSON.stringify would store as null.
  if (typeof value === "number") return Number.isFinite(value) ? undefined : "is a number too large to store";
  if (typeof value !== "string") return undefined;
  if (value.includes("\u0000")) return "contains a NUL character (\\u0000), which cannot be stored";
  if (!value.isWellFormed()) return "contains a lone UTF-16 surrogate, which is not valid Unicode";
  return undefined;
}
