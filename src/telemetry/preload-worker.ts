import { preload } from "./preload";

// The first import of src/worker.ts: telemetry starts before pg and pino load.
preload("worker");

export { startedTelemetry } from "./preload";
