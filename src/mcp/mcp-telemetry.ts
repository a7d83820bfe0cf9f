import { propagation, ROOT_CONTEXT, SpanStatusCode, trace, type Link } from "@opentelemetry/api";
import type { CallToolResult } from "@modelcontextprotocol/server";
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_MCP_METHOD_NAME,
  GEN_AI_OPERATION_EXECUTE_TOOL,
} from "../telemetry/conventions";
import { instruments, secondsSince } from "../telemetry/instruments";
import { inSpan, SpanKind } from "../telemetry/tracing";

const TOOLS_CALL = "tools/call";
/** The MCP conventions' error type of a call whose result has `isError: true`. */
const TOOL_ERROR = "tool_error";

/**
 * A tool call as the MCP semantic conventions describe a server's side of it: a SERVER span
 * `tools/call <tool>` (mcp.method.name, gen_ai.tool.name, gen_ai.operation.name = execute_tool,
 * jsonrpc.request.id, error.type = tool_error for a refused call) inside the HTTP request's
 * trace, linked to the client's own trace when its request carried one (`_meta.traceparent`), and
 * the mcp.server.operation.duration histogram. Arguments and results are never recorded.
 */
export function tracedToolCall(toolName: string, requestId: string | number, traceparent: string | undefined, call: () => Promise<CallToolResult>): Promise<CallToolResult> {
  const attributes = { [ATTR_MCP_METHOD_NAME]: TOOLS_CALL, [ATTR_GEN_AI_TOOL_NAME]: toolName, [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_EXECUTE_TOOL };
  const started = performance.now();
  return inSpan(
    `${TOOLS_CALL} ${toolName}`,
    { kind: SpanKind.SERVER, attributes: { ...attributes, "jsonrpc.request.id": String(requestId) }, links: linkTo(traceparent) },
    async (span) => {
      const result = await call();
      if (result.isError) {
        span.setAttribute(ATTR_ERROR_TYPE, TOOL_ERROR);
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      instruments().mcpOperationDuration.record(secondsSince(started), result.isError ? { ...attributes, [ATTR_ERROR_TYPE]: TOOL_ERROR } : attributes);
      return result;
    },
  );
}

/** The client's span, from a W3C traceparent, as a link (no link with telemetry off: the API's propagator is a no-op). */
function linkTo(traceparent: string | undefined): Link[] {
  if (!traceparent) return [];
  const context = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, { traceparent }));
  return context ? [{ context }] : [];
}
