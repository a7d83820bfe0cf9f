import { z } from "../contracts/zod";
import type { ApiKeyPrincipal } from "../auth/principal";
import type { Scope } from "../auth/scopes";
import type { Logger } from "../lib/logger";
import type { AnyOperation } from "../operations/operation";
import { SEARCH_MODES, type SearchMode } from "../search/search-mode";
import type { Services } from "../services";

type AnyObject = z.ZodObject<z.ZodRawShape>;

/** What a tool call knows: the key's principal, the services, and the address links are made against. */
export interface ToolContext {
  principal: ApiKeyPrincipal;
  services: Services;
  /** The address the caller used (or PUBLIC_BASE_URL), to make links absolute. */
  baseUrl: string;
  logger: Logger;
  requestId: string;
}

/**
 * An operation offered as an MCP tool. The adapter adds only the tool's name, title and
 * description, and descriptions of its arguments written for a model; the arguments themselves
 * (their types and limits), the scope, the call and the answer are the operation's.
 */
export interface McpTool {
  name: string;
  title: string;
  description: string;
  scope: Scope;
  input: AnyObject;
  output: AnyObject;
  operation: AnyOperation;
  /** Fields the tool's structured result adds to the operation's answer, from the operation's result. */
  addedFields?(result: unknown): Record<string, unknown>;
}

export interface ToolBinding<O extends AnyOperation> {
  name: string;
  title: string;
  /** Defaults to the operation's description. */
  description?: string;
  /** A description, for a model, of each argument; the argument's schema is the operation's own. */
  arguments?: Partial<Record<keyof O["input"]["shape"] & string, string>>;
  /**
   * A search that says how it ranked: the structured result gains `searchMode` (REST sends it as
   * the X-Search-Mode header, since the contract fixes REST's bodies).
   */
  reportsSearchMode?: boolean;
}

const SearchModeField = z
  .enum(SEARCH_MODES)
  .describe("hybrid: ranked by meaning and words. lexical: by words alone, because the query's meaning could not be computed in time; retry later for a better answer.");

export function toolFor<O extends AnyOperation>(operation: O, binding: ToolBinding<O>): McpTool {
  if (operation.access.kind !== "workspace") throw new Error(`${operation.name}: MCP tools run with a workspace key`);
  const input = operation.input as AnyObject;
  const described = Object.fromEntries(
    Object.entries(binding.arguments ?? {}).map(([field, text]) => {
      const schema = input.shape[field];
      if (!schema) throw new Error(`${binding.name}: describes argument ${field}, which ${operation.name} does not take`);
      return [field, (schema as z.ZodType).describe(text as string)];
    }),
  );
  return {
    name: binding.name,
    title: binding.title,
    description: binding.description ?? operation.description ?? operation.summary,
    scope: operation.access.scope,
    // safeExtend keeps the rules that relate the operation's fields (a time range's bounds).
    input: Object.keys(described).length > 0 ? input.safeExtend(described) : input,
    output: binding.reportsSearchMode ? (operation.output as AnyObject).extend({ searchMode: SearchModeField }) : (operation.output as AnyObject),
    operation,
    ...(binding.reportsSearchMode ? { addedFields: (result: unknown) => ({ searchMode: (result as { searchMode: SearchMode }).searchMode }) } : {}),
  };
}
