import createClient, { type Client, type ClientOptions, type Middleware } from "openapi-fetch";
import type { components, operations, paths } from "./schema";

export type { components, operations, paths };

/** The contract's wire types by name, e.g. `Schemas["FeedbackItem"]`. */
export type Schemas = components["schemas"];

export type WorkspaceIntelligenceClient = Client<paths>;

export interface WorkspaceIntelligenceClientOptions extends Omit<ClientOptions, "baseUrl"> {
  /** Where the service runs, e.g. `https://api.example.com` (the paths already start with /api/v1). */
  baseUrl: string;
  /** A workspace API key (`wsi_…`), sent as `Authorization: Bearer`. */
  apiKey: string;
  /** openapi-fetch middleware, run in order around every request (logging, retries…). */
  middleware?: Middleware[];
}

/**
 * A typed client of the Workspace Intelligence API: each call is checked against the OpenAPI
 * document at compile time — paths, parameters, bodies and the shape of every answer.
 *
 * ```ts
 * const api = createWorkspaceIntelligenceClient({ baseUrl, apiKey });
 * const { data, error } = await api.GET("/api/v1/briefing");
 * ```
 */
export function createWorkspaceIntelligenceClient(options: WorkspaceIntelligenceClientOptions): WorkspaceIntelligenceClient {
  const { apiKey, middleware = [], headers, ...rest } = options;
  const client = createClient<paths>({ ...rest, headers: { ...headers, Authorization: `Bearer ${apiKey}` } });
  if (middleware.length > 0) client.use(...middleware);
  return client;
}
