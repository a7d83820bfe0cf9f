import pino from "pino";

export type Logger = pino.Logger;

/** One JSON object per line on stdout, the shape log drains of a dyno platform expect. */
export function createLogger(level: string = "info", destination?: pino.DestinationStream): Logger {
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, destination);
}
