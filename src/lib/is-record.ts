/**
 * A plain JSON object, so that its keys can be read. Arrays are objects to `typeof` but are never
 * what a caller reading named fields of stored, unvalidated JSON means.
 */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
