import "dotenv/config";
import { ConfigError, loadConfig } from "../config";
import type { ProcessType, StartedTelemetry } from "./sdk";
import { describeTelemetry } from "./telemetry-summary";

let started: StartedTelemetry | undefined;

/** The SDK this process started, or undefined with telemetry off. */
export function startedTelemetry(): StartedTelemetry | undefined {
  return started;
}

/**
 * Starts telemetry when TELEMETRY=on, before the entry point's other imports run: the
 * instrumentations patch http, Express, pg and pino as they are first required, so this must be
 * the entry point's first import (src/telemetry/preload-web.ts, preload-worker.ts). With telemetry
 * off the SDK is never required, and every span and metric of our own is the API's no-op. A
 * configuration error is left to the entry point, which reports every problem at once.
 */
export function preload(processType: ProcessType): void {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) return;
    throw error;
  }
  if (!config.telemetry.enabled || started) return;
  // Required here, and only when on: importing it would load the SDK whatever the setting.
  const sdk = require("./sdk") as typeof import("./sdk");
  started = sdk.startTelemetry(config.telemetry, {
    processType,
    // pino is loaded after its instrumentation, here and on the SDK's first complaint.
    logWarning: (message) => telemetryLogger(config.logLevel).warn({ component: "opentelemetry" }, message),
    logInfo: (message) => telemetryLogger(config.logLevel).info({ component: "opentelemetry" }, message),
  });
  // The process's first line says where its telemetry goes (the banner says it again).
  const state = describeTelemetry(config.telemetry);
  telemetryLogger(config.logLevel).info({ component: "opentelemetry", telemetry: state }, `telemetry ${state}`);
}

let logger: { warn(fields: object, message: string): void; info(fields: object, message: string): void } | undefined;

function telemetryLogger(level: string) {
  logger ??= (require("../lib/logger") as typeof import("../lib/logger")).createLogger(level);
  return logger;
}
