import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A span as OTLP/JSON carries it (ids in hex), with its attributes flattened. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, unknown>;
  links: Array<{ traceId: string; spanId: string }>;
  scope: string;
}

/**
 * An OTLP/HTTP endpoint on a loopback port, as a collector is to the service: it keeps what the
 * exporters send as JSON (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`) to /v1/traces and /v1/metrics,
 * and the content type of every request.
 */
export async function startOtlpReceiver() {
  const spans: ReceivedSpan[] = [];
  const metricNames = new Set<string>();
  const contentTypes: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      contentTypes.push(`${req.url} ${req.headers["content-type"]}`);
      if (req.headers["content-type"]?.startsWith("application/json")) {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        if (req.url === "/v1/traces") spans.push(...spansOf(body));
        if (req.url === "/v1/metrics") for (const name of metricNamesOf(body)) metricNames.add(name);
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    metricNames,
    contentTypes,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

type AnyValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean };
const valueOf = (value: AnyValue) => value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.doubleValue ?? value.boolValue));

function spansOf(body: { resourceSpans?: Array<{ scopeSpans?: Array<{ scope?: { name?: string }; spans?: Array<Record<string, unknown>> }> }> }): ReceivedSpan[] {
  return (body.resourceSpans ?? []).flatMap((resource) =>
    (resource.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        traceId: span.traceId as string,
        spanId: span.spanId as string,
        parentSpanId: (span.parentSpanId as string | undefined) || undefined,
        name: span.name as string,
        kind: span.kind as number,
        attributes: Object.fromEntries(((span.attributes ?? []) as Array<{ key: string; value: AnyValue }>).map(({ key, value }) => [key, valueOf(value)])),
        links: ((span.links ?? []) as Array<{ traceId: string; spanId: string }>).map(({ traceId, spanId }) => ({ traceId, spanId })),
        scope: scope.scope?.name ?? "",
      })),
    ),
  );
}

function metricNamesOf(body: { resourceMetrics?: Array<{ scopeMetrics?: Array<{ metrics?: Array<{ name: string }> }> }> }): string[] {
  return (body.resourceMetrics ?? []).flatMap((resource) => (resource.scopeMetrics ?? []).flatMap((scope) => (scope.metrics ?? []).map((metric) => metric.name)));
}
