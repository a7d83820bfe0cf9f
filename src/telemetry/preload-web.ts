import { preload } from "./preload";

// The first import of src/server.ts: telemetry starts before Express, pg and pino load.
preload("web");

export { startedTelemetry } from "./preload";
