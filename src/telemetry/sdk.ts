import { hostname } from "node:os";
import type { IncomingMessage, ServerResponse } from "node:http";
import { diag, DiagLogLevel, isSpanContextValid, metrics, trace, TraceFlags, ValueType, type Attributes, type Context, type Link, type SpanKind } from "@opentelemetry/api";
import { OTLPMetricExporter as OtlpJsonMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { OTLPMetricExporter as OtlpProtobufMetricExporter } from "@opentelemetry/exporter-metrics-otlp-proto";
import { PrometheusExporter } from "@opentelemetry/exporter-prometheus";
import { OTLPTraceExporter as OtlpJsonTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as OtlpProtobufTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { registerInstrumentations } from "@opentelemetry/instrumentation";
import { ExpressInstrumentation, ExpressLayerType } from "@opentelemetry/instrumentation-express";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import { PinoInstrumentation } from "@opentelemetry/instrumentation-pino";
import { RuntimeNodeInstrumentation } from "@opentelemetry/instrumentation-runtime-node";
import { detectResources, envDetector, hostDetector, resourceFromAttributes } from "@opentelemetry/resources";
import { ConsoleMetricExporter, MeterProvider, PeriodicExportingMetricReader, type IMetricReader } from "@opentelemetry/sdk-metrics";
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  NodeTracerProvider,
  ParentBasedSampler,
  SamplingDecision,
  TraceIdRatioBasedSampler,
  type Sampler,
  type SamplingResult,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-node";
import { setGlobalErrorHandler } from "@opentelemetry/core";
import { PrismaInstrumentation } from "@prisma/instrumentation";
import type { TelemetrySettings, TracesSamplerName } from "../config";
import { loggablePath } from "../http/request-context";
import { INSTRUMENTATION_SCOPE, METRIC_PROCESS_MEMORY_USAGE } from "./conventions";
import { exportReachability } from "./export-reachability";
import { otlpEndpoint } from "./telemetry-summary";

/** What the rest of the process needs of a started SDK. */
export interface StartedTelemetry {
  /** Answers a scrape with the Prometheus text (when OTEL_METRICS_EXPORTER names prometheus). */
  prometheus?: { handle(req: IncomingMessage, res: ServerResponse): void; port: number; host: string };
  /** Sends what is buffered and stops the exporters (and the Prometheus listener). */
  shutdown(): Promise<void>;
}

export type ProcessType = "web" | "worker";

const DEFAULT_SERVICE_NAMES: Record<ProcessType, string> = { web: "workspace-intelligence-api", worker: "workspace-intelligence-worker" };

/**
 * Requests that are not traced or timed: platform probes (every few seconds, nothing to learn from
 * one) and scrapes. On whichever port they arrive.
 */
const UNTRACED_PATHS = new Set(["/livez", "/readyz", "/healthz", "/metrics"]);

/**
 * Starts the OpenTelemetry SDK: traces and metrics providers, their exporters, and the
 * instrumentations of http, Express, pg, Prisma, pino and the Node.js runtime. Must run before
 * those modules are first required (src/telemetry/preload.ts is the first import of each entry
 * point): the instrumentations patch them as they load.
 */
export function startTelemetry(
  settings: TelemetrySettings,
  options: { processType: ProcessType; logWarning: (message: string) => void; logInfo: (message: string) => void },
): StartedTelemetry {
  // An unreachable collector is said once per collector, with its address, not once per batch.
  const reachability = exportReachability({ warn: options.logWarning, info: options.logInfo });
  const warnUnlessExportFailure = (report: unknown) => {
    if (!reachability.isExportFailure(report)) options.logWarning(report instanceof Error ? report.message : typeof report === "string" ? report : JSON.stringify(report));
  };
  // The SDK's other troubles (a refused setting, a failed collection) as log lines, not silence.
  setGlobalErrorHandler(warnUnlessExportFailure);
  diag.setLogger(
    {
      error: warnUnlessExportFailure,
      warn: warnUnlessExportFailure,
      info: () => undefined,
      debug: () => undefined,
      verbose: () => undefined,
    },
    DiagLogLevel.WARN,
  );
  const resource = detectResources({ detectors: [envDetector, hostDetector] }).merge(
    resourceFromAttributes({
      "service.name": settings.serviceName ?? DEFAULT_SERVICE_NAMES[options.processType],
      // Heroku names each dyno (web.1); elsewhere the host (a pod's name) and process id tell instances apart.
      "service.instance.id": process.env.DYNO ?? `${hostname()}:${process.pid}`,
      "wsi.process.type": options.processType,
    }),
  );

  const spanProcessors: SpanProcessor[] = settings.traces.exporters.map((name) =>
    name === "console"
      ? new BatchSpanProcessor(new ConsoleSpanExporter())
      : new BatchSpanProcessor(
          reachability.watch(settings.traces.protocol === "http/json" ? new OtlpJsonTraceExporter() : new OtlpProtobufTraceExporter(), otlpEndpoint("traces")),
        ),
  );
  const tracerProvider = new NodeTracerProvider({
    resource,
    sampler: samplerFor(settings.traces),
    spanProcessors,
  });
  // Also the AsyncLocalStorage context manager and the W3C trace-context propagator.
  tracerProvider.register();

  let prometheus: PrometheusExporter | undefined;
  const readers: IMetricReader[] = settings.metrics.exporters.map((name) => {
    if (name === "prometheus") {
      prometheus = new PrometheusExporter({ host: settings.prometheus.host, port: settings.prometheus.port }, (error) => {
        if (error) options.logWarning(`the Prometheus exporter cannot listen on ${settings.prometheus.host}:${settings.prometheus.port}: ${String(error)}`);
      });
      return prometheus;
    }
    const exporter =
      name === "console"
        ? new ConsoleMetricExporter()
        : reachability.watch(
            settings.metrics.protocol === "http/json" ? new OtlpJsonMetricExporter() : new OtlpProtobufMetricExporter(),
            otlpEndpoint("metrics"),
          );
    // OTEL_METRIC_EXPORT_INTERVAL as the specification has it (NodeSDK reads it; the reader does not).
    const interval = Number(process.env.OTEL_METRIC_EXPORT_INTERVAL);
    return new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: Number.isInteger(interval) && interval > 0 ? interval : 60_000 });
  });
  const meterProvider = new MeterProvider({ resource, readers });
  metrics.setGlobalMeterProvider(meterProvider);
  observeProcessMemory();

  const disableInstrumentations = registerInstrumentations({
    tracerProvider,
    meterProvider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => UNTRACED_PATHS.has((req.url ?? "").split("?")[0]!),
        // The same redaction as the request log: no download token (a credential) in the path, and
        // no query value: search text and questions are the workspace's words.
        startIncomingSpanHook: (req) => redactedTarget(req.url ?? "/"),
        // Outgoing calls (S3) only as part of a request or a batch.
        requireParentforOutgoingSpans: true,
      }),
      new ExpressInstrumentation({
        // One span per request: the matched route's handler chain (authentication, rate limit,
        // handler), named by its route template. The app-wide middleware (request id, request log)
        // and the routers it passes through would each add a span of a few microseconds.
        ignoreLayersType: [ExpressLayerType.MIDDLEWARE, ExpressLayerType.ROUTER],
        spanNameHook: (info, defaultName) => (info.layerType === ExpressLayerType.REQUEST_HANDLER && info.route ? `route ${info.route}` : defaultName),
      }),
      // Statements outside a request or a batch (idle polls, housekeeping) are not traced.
      new PgInstrumentation({ requireParentSpan: true }),
      new PrismaInstrumentation(),
      new PinoInstrumentation({ disableLogSending: true }),
      new RuntimeNodeInstrumentation(),
    ],
  });

  return {
    prometheus: prometheus && {
      handle: (req, res) => prometheus!.getMetricsRequestHandler(req, res),
      port: settings.prometheus.port,
      host: settings.prometheus.host,
    },
    shutdown: async () => {
      disableInstrumentations();
      await Promise.allSettled([tracerProvider.shutdown(), meterProvider.shutdown()]);
    },
  };
}

/** url.path and url.query of a server span, without a download token or any query value. */
export function redactedTarget(url: string): Attributes {
  const [, query] = url.split("?", 2);
  const attributes: Attributes = { "url.path": loggablePath(url) };
  if (query !== undefined) {
    attributes["url.query"] = [...new URLSearchParams(query).keys()].map((name) => `${encodeURIComponent(name)}=REDACTED`).join("&");
  }
  return attributes;
}

/**
 * OTEL_TRACES_SAMPLER as the specification defines it (OTEL_TRACES_SAMPLER_ARG the ratio of the
 * traceidratio ones), with one rule on top: a statement's span (Prisma's, pg's) only ever follows
 * its parent, and one with no sampled parent is dropped. Statements outside a request or a batch
 * (the indexer's idle polls, housekeeping, the rate-limit counters' flushes) would otherwise be
 * most traces, and tell nothing.
 */
export function samplerFor(traces: { sampler: TracesSamplerName; sampleRatio: number }): Sampler {
  return new StatementsFollowTheirParent(standardSampler(traces.sampler, traces.sampleRatio));
}

function standardSampler(name: TracesSamplerName, ratio: number): Sampler {
  switch (name) {
    case "always_on":
      return new AlwaysOnSampler();
    case "always_off":
      return new AlwaysOffSampler();
    case "traceidratio":
      return new TraceIdRatioBasedSampler(ratio);
    case "parentbased_always_on":
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case "parentbased_always_off":
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case "parentbased_traceidratio":
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
  }
}

class StatementsFollowTheirParent implements Sampler {
  constructor(private readonly configured: Sampler) {}

  shouldSample(parent: Context, traceId: string, name: string, kind: SpanKind, attributes: Attributes, links: Link[]): SamplingResult {
    if (name.startsWith("prisma:") || name.startsWith("pg")) {
      const parentSpan = trace.getSpanContext(parent);
      const sampled = parentSpan !== undefined && isSpanContextValid(parentSpan) && (parentSpan.traceFlags & TraceFlags.SAMPLED) !== 0;
      return { decision: sampled ? SamplingDecision.RECORD_AND_SAMPLED : SamplingDecision.NOT_RECORD };
    }
    return this.configured.shouldSample(parent, traceId, name, kind, attributes, links);
  }

  toString(): string {
    return `StatementsFollowTheirParent{${this.configured.toString()}}`;
  }
}

/** Resident set size (semantic conventions' process.memory.usage); the V8 heap comes from the runtime instrumentation. */
function observeProcessMemory(): void {
  metrics
    .getMeter(INSTRUMENTATION_SCOPE)
    .createObservableUpDownCounter(METRIC_PROCESS_MEMORY_USAGE, { description: "The amount of physical memory in use (RSS).", unit: "By", valueType: ValueType.INT })
    .addCallback((observer) => observer.observe(process.memoryUsage.rss()));
}
