import type { TelemetrySettings } from "../config";

type Env = Record<string, string | undefined>;

const DEFAULT_OTLP_ENDPOINT = "http://localhost:4318";

/**
 * The address an OTLP/HTTP exporter of `signal` sends to, as the OpenTelemetry specification
 * resolves it: the signal's own variable as given, else the shared base with `/v1/<signal>`.
 */
export function otlpEndpoint(signal: "traces" | "metrics", env: Env = process.env): string {
  const own = env[`OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_ENDPOINT`]?.trim();
  if (own) return own;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || DEFAULT_OTLP_ENDPOINT;
  // As the exporters join them: by text, after a slash.
  return `${base.endsWith("/") ? base : `${base}/`}v1/${signal}`;
}

/**
 * An address as it may be printed: without user name, password, query or fragment, where
 * collectors' credentials travel (the headers of OTEL_EXPORTER_OTLP_HEADERS are never printed).
 */
export function printableAddress(address: string): string {
  try {
    const url = new URL(address);
    url.username = "";
    url.password = "";
    url.search = "";
    url.hash = "";
    return url.href;
  } catch {
    return "(not a URL)";
  }
}

/** What the start banner and the first log line say about telemetry: off, or where each signal goes. */
export function describeTelemetry(settings: TelemetrySettings, env: Env = process.env): string {
  if (!settings.enabled) {
    if (env.TELEMETRY?.trim() !== "on") return "off (TELEMETRY=on exports traces and metrics)";
    return env.OTEL_SDK_DISABLED?.trim() === "true" ? "off (OTEL_SDK_DISABLED=true)" : "off (OTEL_TRACES_EXPORTER and OTEL_METRICS_EXPORTER are both none)";
  }
  const otlp = (signal: "traces" | "metrics", protocol: string) => `OTLP ${protocol} to ${printableAddress(otlpEndpoint(signal, env))}`;
  const traces = settings.traces.exporters.map((name) => (name === "otlp" ? otlp("traces", settings.traces.protocol) : "console"));
  const metrics = settings.metrics.exporters.map((name) =>
    name === "otlp" ? otlp("metrics", settings.metrics.protocol) : name === "prometheus" ? `Prometheus on ${settings.prometheus.host}:${settings.prometheus.port}` : "console",
  );
  return `on: traces ${traces.length ? traces.join(", ") : "off"}; metrics ${metrics.length ? metrics.join(", ") : "off"}`;
}
