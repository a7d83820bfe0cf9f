import pino from "pino";

export type Logger = pino.Logger;

/**
 * One JSON object per line on stdout, the shape log drains of a dyno platform expect. Written in
 * batches (batchedLines): a request's log line is gathered in memory, and a batch reaches the
 * pipe in one write at most LOG_BATCH_DELAY_MS after its first line (everything left is written
 * when the process exits).
 */
export function createLogger(level: string = "info", destination: pino.DestinationStream = stdoutLines()): Logger {
  return pino({ level, base: undefined, timestamp: isoTimeOfThisMillisecond }, destination);
}

let lastMillisecond = Number.NaN;
let lastTime = "";

/**
 * pino's `isoTime`, the same field, made once a millisecond: under load several lines share one,
 * and the Date made and written for each line was about a third of a request line's cost.
 */
export function isoTimeOfThisMillisecond(): string {
  const now = Date.now();
  if (now !== lastMillisecond) {
    lastMillisecond = now;
    lastTime = `,"time":"${new Date(now).toISOString()}"`;
  }
  return lastTime;
}

/** The longest a logged line waits before it is handed to stdout. */
export const LOG_BATCH_DELAY_MS = 100;
/** A batch this long, in characters, is handed over at once (about thirty request lines). */
export const LOG_BATCH_LENGTH = 8192;

interface LineSink {
  write(text: string): unknown;
  flushSync?(): void;
}

/**
 * Gathers lines and hands them to `sink` together, when they reach `maxLength` characters or
 * `maxDelayMs` after the first of them. Each write to a pipe costs a system call and a trip
 * through libuv's thread pool, and wakes the reader: a write for each request's line took 14% of
 * a fetch's CPU at one connection on PostgreSQL (docs/performance.md, run AH).
 */
export function batchedLines(sink: LineSink, { maxLength = LOG_BATCH_LENGTH, maxDelayMs = LOG_BATCH_DELAY_MS } = {}) {
  let lines: string[] = [];
  let length = 0;
  let due: NodeJS.Timeout | undefined;
  const handOver = () => {
    clearTimeout(due);
    due = undefined;
    if (lines.length === 0) return;
    const text = lines.join("");
    lines = [];
    length = 0;
    sink.write(text);
  };
  return {
    write(line: string): void {
      lines.push(line);
      length += line.length;
      if (length >= maxLength) handOver();
      // Unreferenced: a process with nothing else to do exits, and the exit writes what is left.
      else due ??= setTimeout(handOver, maxDelayMs).unref();
    },
    /** Hands what is gathered to the sink now (pino's `logger.flush()` comes here). */
    flush(done?: (error?: Error) => void): void {
      handOver();
      done?.();
    },
    /** Hands what is gathered to the sink and has the sink write everything it holds before returning. */
    flushSync(): void {
      handOver();
      sink.flushSync?.();
    },
  };
}

let stdout: ReturnType<typeof batchedLines> | undefined;

/** The process's one batch of stdout lines, which every logger of it shares (their lines stay in order). */
function stdoutLines(): pino.DestinationStream {
  if (!stdout) {
    // Each batch written at once (one write for about thirty request lines), not handed to a
    // write in libuv's thread pool: a batch still there when the process exits comes out after the
    // lines the exit's flush writes, or not at all (docs/decisions.md).
    const lines = batchedLines(pino.destination({ dest: 1, sync: true }));
    process.once("exit", () => lines.flushSync());
    stdout = lines;
  }
  return stdout;
}
