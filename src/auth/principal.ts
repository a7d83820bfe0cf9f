/** The caller behind a valid API key: everything a handler may know about it. */
export interface ApiKeyPrincipal {
  keyId: string;
  keyName: string;
  workspaceId: string;
  scopes: string[];
}
