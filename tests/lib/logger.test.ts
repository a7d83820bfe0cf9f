import path from "node:path";
import { batchedLines, createLogger } from "../../src/lib/logger";
import { spawnTracked } from "../support/child-processes";
import { waitFor } from "../support/wait-for";

const ROOT = path.resolve(__dirname, "../..");

/** A sink that keeps each write apart, and counts the synchronous flushes asked of it. */
function recordingSink() {
  const writes: string[] = [];
  let syncFlushes = 0;
  return {
    sink: {
      write: (text: string) => writes.push(text),
      flushSync: () => {
        syncFlushes += 1;
      },
    },
    writes,
    syncFlushes: () => syncFlushes,
  };
}

const line = (n: number) => `${JSON.stringify({ msg: "request", n })}\n`;

describe("the log line's time", () => {
  it("is the ISO time of the millisecond the line is written, as pino's isoTime writes it", async () => {
    const written: string[] = [];
    const logger = createLogger("info", { write: (text: string) => written.push(text) });
    const times: Array<{ before: number; after: number }> = [];
    // Lines in the same millisecond and in later ones: each line's time is its own millisecond's.
    for (let i = 0; i < 5; i++) {
      const before = Date.now();
      logger.info({ i }, "first");
      logger.info({ i }, "second");
      times.push({ before, after: Date.now() });
      await waitFor(() => Date.now() > times[i]!.after, { what: "the next millisecond", everyMs: 1 });
    }
    const stamps = written.map((text) => (JSON.parse(text) as { time: string }).time);
    expect(stamps).toHaveLength(10);
    stamps.forEach((stamp, n) => {
      expect(stamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      const at = Date.parse(stamp);
      expect(at).toBeGreaterThanOrEqual(times[Math.floor(n / 2)]!.before);
      expect(at).toBeLessThanOrEqual(times[Math.floor(n / 2)]!.after);
    });
    // Each pair was written in a later millisecond than the one before: no time is kept too long.
    for (let n = 2; n < stamps.length; n += 2) expect(Date.parse(stamps[n]!)).toBeGreaterThan(Date.parse(stamps[n - 1]!));
  });
});

describe("batched log lines", () => {
  it("hands lines over together, in order, once they reach the batch length", () => {
    const { sink, writes } = recordingSink();
    const lines = batchedLines(sink, { maxLength: 3 * line(1).length, maxDelayMs: 60_000 });
    lines.write(line(1));
    lines.write(line(2));
    expect(writes).toEqual([]);
    lines.write(line(3));
    expect(writes).toEqual([line(1) + line(2) + line(3)]);
    lines.write(line(4));
    lines.flush();
    expect(writes).toEqual([line(1) + line(2) + line(3), line(4)]);
  });

  it("hands a lone line over after the delay, without being asked", async () => {
    const { sink, writes } = recordingSink();
    const lines = batchedLines(sink, { maxLength: 1 << 20, maxDelayMs: 20 });
    lines.write(line(1));
    expect(writes).toEqual([]);
    await waitFor(() => writes.length === 1, { what: "the delayed hand-over" });
    expect(writes).toEqual([line(1)]);
    // The next line starts a delay of its own.
    lines.write(line(2));
    await waitFor(() => writes.length === 2, { what: "the second hand-over" });
    expect(writes[1]).toBe(line(2));
  });

  it("flushSync hands over what is gathered and has the sink write it all", () => {
    const { sink, writes, syncFlushes } = recordingSink();
    const lines = batchedLines(sink, { maxLength: 1 << 20, maxDelayMs: 60_000 });
    lines.write(line(1));
    lines.flushSync();
    expect(writes).toEqual([line(1)]);
    expect(syncFlushes()).toBe(1);
    // Nothing gathered: nothing handed over, but the sink is still flushed.
    lines.flushSync();
    expect(writes).toHaveLength(1);
  });

  it("a process that logs and exits at once loses no line, and a lone line comes out with nothing asking for it", async () => {
    const script = `
      const { createLogger } = require("./src/lib/logger");
      const logger = createLogger("info");
      if (process.argv[1] === "wait") {
        logger.info({ n: 0 }, "lone line");
        // The process stays up: the line must come out on its own.
        setInterval(() => undefined, 1000);
      } else {
        for (let n = 0; n < 500; n++) logger.info({ n }, "request");
        process.exit(0);
      }`;
    const run = (mode: string) => {
      const child = spawnTracked(process.execPath, ["--import", "tsx", "-e", script, mode], { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: "" }, stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      child.stdout!.on("data", (chunk) => (output += String(chunk)));
      child.stderr!.on("data", (chunk) => (output += String(chunk)));
      // Its code once its output has all been read.
      const ended = Promise.all([new Promise<number | null>((resolve) => child.once("exit", resolve)), new Promise((resolve) => child.stdout!.once("close", resolve))]);
      return { child, output: () => output, code: async () => (await ended)[0] };
    };

    const exiting = run("exit");
    expect(await exiting.code()).toBe(0);
    const numbers = exiting
      .output()
      .trim()
      .split("\n")
      .map((text) => (JSON.parse(text) as { n: number }).n);
    expect(numbers).toEqual(Array.from({ length: 500 }, (_, n) => n));

    const waiting = run("wait");
    try {
      const out = await waitFor(() => waiting.output().includes('"msg":"lone line"') && waiting.output(), { what: "the lone line" });
      expect(JSON.parse(out.trim())).toMatchObject({ level: 30, n: 0, msg: "lone line" });
    } finally {
      waiting.child.kill("SIGKILL");
    }
  }, 60_000);
});
