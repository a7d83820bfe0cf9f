import type { z } from "zod";
import type { ApiKeyPrincipal } from "../auth/principal";
import type { Scope } from "../auth/scopes";
import type { Logger } from "../lib/logger";
import type { Services } from "../services";

/** What a tool may know about the call: the key's principal, the services, and links for people. */
export interface ToolContext {
  principal: ApiKeyPrincipal;
  services: Services;
  /** Where a person opens an artifact (the review console's page of it). */
  artifactUrl(id: string): string;
  /** The address the caller used (or PUBLIC_BASE_URL), to make signed download paths absolute. */
  baseUrl: string;
  logger: Logger;
  requestId: string;
}

type AnyObject = z.ZodObject<z.ZodRawShape>;

/**
 * One read-only tool, declared once: the scope of its REST twin, Zod schemas for its input and
 * its structured output, and a handler that calls the same service the REST route calls.
 */
export interface McpTool<I extends AnyObject = AnyObject, O extends AnyObject = AnyObject> {
  name: string;
  title: string;
  description: string;
  scope: Scope;
  input: I;
  output: O;
  /** Its answer is parsed through `output` before it is sent, as REST parses through its contract. */
  handle(input: z.output<I>, ctx: ToolContext): Promise<unknown>;
}

export function defineTool<I extends AnyObject, O extends AnyObject>(tool: McpTool<I, O>): McpTool {
  return tool as unknown as McpTool;
}
