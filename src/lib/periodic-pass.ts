import type { Logger } from "./logger";

/** A background job that runs a pass every interval, off the request path. */
export interface PeriodicPass<T> {
  start(): void;
  /** Stops at once: a pass in progress ends where it next checks `shouldStop`. */
  stop(): Promise<void>;
  /** One pass now, to its end. */
  runOnce(): Promise<T>;
}

/**
 * Runs `pass` `intervalMs` after the previous one ended (never two at once); a failed pass is
 * logged and the next one tried an interval later. Its timer keeps no process alive.
 */
export function periodicPass<T>({
  pass,
  intervalMs,
  logger,
  name,
  onPass,
  firstAfterMs = intervalMs,
}: {
  pass: (shouldStop: () => boolean) => Promise<T>;
  intervalMs: number;
  /** When the first pass runs after start: an interval later unless given. */
  firstAfterMs?: number;
  logger: Logger;
  /** What the warning of a failed pass calls the job. */
  name: string;
  onPass?: (result: T) => void;
}): PeriodicPass<T> {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = true;

  function schedule(afterMs = intervalMs) {
    if (stopped) return;
    timer = setTimeout(() => {
      running = pass(() => stopped)
        .then((result) => onPass?.(result))
        .catch((error: unknown) => logger.warn({ err: error }, `${name} failed; retrying next interval`))
        .finally(() => {
          running = undefined;
          schedule();
        });
    }, afterMs);
    timer.unref();
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      schedule(firstAfterMs);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
    runOnce: () => pass(() => false),
  };
}
