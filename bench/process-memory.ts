import { readdirSync, readFileSync } from "node:fs";

// What a process costs the box, read from outside it as the platform reads it: resident set size
// (VmRSS) and its high-water mark (VmHWM) from /proc/<pid>/status, sampled through a bench's phases.

const MB = 1024;

/** VmRSS and VmHWM of a process, in MB; undefined once it has exited. */
export function residentMb(pid: number): { rss: number; hwm: number } | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return undefined;
  }
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN) / MB;
  return { rss: field("VmRSS"), hwm: field("VmHWM") };
}

/**
 * The process's threads by name (/proc/<pid>/task/<tid>/comm): a model thread is named after its
 * lane ("model-query", "model-index"; Node 24 gives a worker thread the name it was created with).
 */
export function threadNames(pid: number): string[] {
  try {
    return readdirSync(`/proc/${pid}/task`).map((tid) => {
      try {
        return readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim();
      } catch {
        return "";
      }
    });
  } catch {
    return [];
  }
}

/** Model threads of a process, by lane, e.g. "1 query + 2 index"; "none" when it runs none. */
export function modelThreads(pid: number): string {
  const names = threadNames(pid);
  // Node 24 names its threads ("MainThread", a worker thread by its name); Node 20 names them all "node".
  if (!names.includes("MainThread")) return "unnamed by this Node";
  const query = names.filter((name) => name.startsWith("model-query")).length;
  const index = names.filter((name) => name.startsWith("model-index")).length;
  if (query + index === 0) return "none";
  return [query ? `${query} query` : "", index ? `${index} index` : ""].filter(Boolean).join(" + ");
}

/** The largest VmRSS of each phase, sampled every `everyMs` while a phase runs. */
export class RssSampler {
  private readonly maxima = new Map<string, number>();
  private phase: string | undefined;
  private readonly timer: NodeJS.Timeout;
  /** The model threads seen at their most (by count) during the run. */
  threads = "none";
  private threadCount = 0;

  constructor(
    readonly pid: number,
    everyMs = 200,
  ) {
    this.timer = setInterval(() => this.sample(), everyMs);
    this.timer.unref();
  }

  /** Samples from now on count toward `name` (until the next call). */
  enter(name: string): void {
    this.sample();
    this.phase = name;
    this.sample();
  }

  /** The current VmRSS, which also counts toward the current phase. */
  now(): number {
    return this.sample() ?? NaN;
  }

  max(phase: string): number {
    return this.maxima.get(phase) ?? NaN;
  }

  /** VmHWM: the most the process has held since it started. */
  peak(): number {
    return residentMb(this.pid)?.hwm ?? NaN;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private sample(): number | undefined {
    const memory = residentMb(this.pid);
    if (!memory) return undefined;
    if (this.phase) this.maxima.set(this.phase, Math.max(this.maxima.get(this.phase) ?? 0, memory.rss));
    const names = threadNames(this.pid);
    const count = names.filter((name) => name.startsWith("model-")).length;
    if (count > this.threadCount || this.threads === "none") {
      this.threadCount = count;
      this.threads = modelThreads(this.pid);
    }
    return memory.rss;
  }
}
