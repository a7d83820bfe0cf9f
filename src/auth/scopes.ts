export const SCOPES = ["artifacts:read", "artifacts:write", "intelligence:read", "data:read", "skills:read"] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** A key with no scopes has full access; a scoped key has exactly its scopes. */
export function keyAllows(keyScopes: readonly string[], required: Scope): boolean {
  return keyScopes.length === 0 || keyScopes.includes(required);
}

/** What an OAuth grant may hold: the MCP server is read-only, so never artifacts:write. */
export const READ_SCOPES: readonly Scope[] = SCOPES.filter((scope) => scope !== "artifacts:write");
