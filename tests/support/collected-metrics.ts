import { metrics } from "@opentelemetry/api";
import { MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";

/** Collects the process's metrics on demand: the real SDK, read in place of an exporter. */
class CollectingReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

/**
 * Makes the real SDK the global meter provider, read on demand. Call it before anything records:
 * the instruments are made on first use, from the global provider.
 */
export function collectMetrics() {
  const reader = new CollectingReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  metrics.setGlobalMeterProvider(meterProvider);
  return {
    /** The data points of the metric `name` recorded so far. */
    async points(name: string): Promise<Array<{ attributes: Record<string, unknown>; value: number }>> {
      const { resourceMetrics } = await reader.collect();
      return resourceMetrics.scopeMetrics
        .flatMap((scope) => scope.metrics)
        .filter((metric) => metric.descriptor.name === name)
        .flatMap((metric) => metric.dataPoints as Array<{ attributes: Record<string, unknown>; value: number }>);
    },
    shutdown: () => meterProvider.shutdown(),
  };
}
