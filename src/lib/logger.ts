import pino from "pino";

export type Logger = pino.Logger;

/**
 * One JSON object per line on stdout, the shape log drains of a dyno platform expect. Written
 * asynchronously: a request's log line never waits for the pipe to take it (pino writes what is
 * left synchronously when the process exits).
 */
export function createLogger(level: string = "info", destination: pino.DestinationStream = pino.destination({ dest: 1, sync: false })): Logger {
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, destination);
}
