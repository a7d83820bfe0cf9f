export const SCOPES = ["artifacts:read", "artifacts:write", "intelligence:read", "data:read", "skills:read"] as const;

export type Scope = (typeof SCOPES)[number];

/**
 * What each scope lets its holder do, in the words a person deciding to grant it reads: the OpenAPI
 * document's security scheme and the consent page both show these sentences.
 */
export const SCOPE_DESCRIPTIONS: Readonly<Record<Scope, string>> = {
  "artifacts:read": "Search and read the workspace's validated artifacts, and see whether its pushed drafts were validated or disputed, and why.",
  "artifacts:write": "Push draft artifacts (insights, analyses, predictions) for the workspace's reviewers to validate or dispute.",
  "intelligence:read": "Read the workspace's briefing (context, directives, rules and definitions) and recall its memories.",
  "data:read": "Read the descriptions of the workspace's data sources (never their credentials), with the proven SQL and past errors recorded for each.",
  "skills:read": "List the workspace's enabled skills and read their files.",
};

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** A key with no scopes has full access; a scoped key has exactly its scopes. */
export function keyAllows(keyScopes: readonly string[], required: Scope): boolean {
  return keyScopes.length === 0 || keyScopes.includes(required);
}

/** What an OAuth grant may hold: the MCP server is read-only, so never artifacts:write. */
export const READ_SCOPES: readonly Scope[] = SCOPES.filter((scope) => scope !== "artifacts:write");
