import { printableAddress } from "./telemetry-summary";

/** An exporter's ExportResult; only src/telemetry/sdk.ts imports the SDK's packages. */
interface ExportResult {
  code: number;
  error?: Error;
}

// ExportResultCode.SUCCESS of @opentelemetry/core.
const SUCCESS = 0;

interface Exporter<Items> {
  export(items: Items, resultCallback: (result: ExportResult) => void): void;
}

/**
 * Whether the collectors the OTLP exporters send to answer, said once per collector: a warning
 * naming the address when its first export fails, and a line when it answers again. The SDK
 * itself reports every failed batch, each retry and each timed-out metrics export, which with an
 * unreachable collector is a warning every few seconds for as long as it is away; those reports
 * are recognised here (`isExportFailure`) and left out of the log.
 */
export function exportReachability(log: { warn(message: string): void; info(message: string): void }) {
  // Per collector (scheme, host and port): the addresses of it whose last export failed.
  const failing = new Map<string, Set<string>>();
  const reportedErrors = new WeakSet<object>();

  function observe(address: string, result: ExportResult): void {
    const printable = printableAddress(address);
    const collector = originOf(printable);
    const addresses = failing.get(collector) ?? new Set<string>();
    if (result.code === SUCCESS) {
      if (addresses.delete(printable) && addresses.size === 0) {
        failing.delete(collector);
        log.info(`telemetry: ${printable} answers again; exports resumed`);
      }
      return;
    }
    if (result.error) reportedErrors.add(result.error);
    if (addresses.size === 0) {
      log.warn(`telemetry: cannot export to ${printable} (${reasonOf(result.error)}); what is sent there is dropped until it answers, and this is said once until then`);
    }
    addresses.add(printable);
    failing.set(collector, addresses);
  }

  return {
    /** The exporter, with each export's outcome observed; everything else is the exporter's own. */
    watch<Items, E extends Exporter<Items>>(exporter: E, address: string): E {
      return new Proxy(exporter, {
        get(target, property) {
          if (property === "export") {
            return (items: Items, resultCallback: (result: ExportResult) => void) =>
              target.export(items, (result) => {
                observe(address, result);
                resultCallback(result);
              });
          }
          const value = Reflect.get(target, property, target) as unknown;
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
    },
    /** A report of the SDK's (diag message or error) that repeats a failed export already said. */
    isExportFailure(report: unknown): boolean {
      if (typeof report === "object" && report !== null && reportedErrors.has(report)) return true;
      const message = typeof report === "string" ? report : report instanceof Error ? report.message : "";
      return PER_EXPORT_REPORTS.some((pattern) => pattern.test(message));
    },
  };
}

export type ExportReachability = ReturnType<typeof exportReachability>;

// What the SDK says about each failed export (PeriodicExportingMetricReader, the OTLP transports).
const PER_EXPORT_REPORTS = [/^PeriodicExportingMetricReader: metrics export (timed out|failed|threw)/, /^export (request|response) (retryable|failure)/, /^Export (failed|retry)/];

function originOf(address: string): string {
  try {
    return new URL(address).origin;
  } catch {
    return address;
  }
}

function reasonOf(error: Error | undefined): string {
  if (!error) return "no answer";
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${error.message}${cause}`;
}
