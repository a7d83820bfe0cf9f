import { SpanKind, SpanStatusCode, trace, type Attributes, type Link, type Span } from "@opentelemetry/api";
import { ATTR_ERROR_TYPE, INSTRUMENTATION_SCOPE } from "./conventions";

// Spans of our own go through the API alone: with telemetry off no SDK is registered, the tracer is
// the API's no-op, and a span costs a closure and a non-recording object.
const tracer = trace.getTracer(INSTRUMENTATION_SCOPE);

export { SpanKind };

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  links?: Link[];
}

/**
 * Runs `work` inside a span that is the active context for everything it starts (statements,
 * provider calls), ended when `work` settles. A failure marks the span with its error type and a
 * short message, never the stack or the values the work was given.
 */
export function inSpan<T>(name: string, options: SpanOptions, work: (span: Span) => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(name, options, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      markFailed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The error type an error is counted under: its code (ECONNREFUSED, P2002) or its class name. */
export function errorTypeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && /^[A-Za-z0-9_.-]{1,64}$/.test(code)) return code;
  return error instanceof Error ? error.name : "_OTHER";
}

export function markFailed(span: Span, error: unknown, type = errorTypeOf(error)): void {
  span.setAttribute(ATTR_ERROR_TYPE, type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message.slice(0, 200) : type });
}
