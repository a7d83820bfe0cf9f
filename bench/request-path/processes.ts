import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { ROOT } from "./config";

// A process the bench starts (the service, a floor): its output goes to a log file, as a
// deployment's does (never silenced, never read by the bench while it measures), and the bench
// reads its CPU time from /proc.

export interface LoggedProcess {
  name: string;
  pid: number;
  child: ChildProcess;
  logFile: string;
  /** Everything it wrote so far. */
  log(): string;
  /** CPU seconds used so far by the whole process, every thread (user + system), from /proc/<pid>/stat. */
  cpuSeconds(): number;
  /** SIGTERM, then the exit code (SIGKILL after `graceMs`). */
  stop(graceMs?: number): Promise<number | null>;
}

/** Processes started and not yet exited: stopped if the bench fails or is interrupted. */
const live = new Set<LoggedProcess>();

export async function stopAll(): Promise<void> {
  await Promise.all([...live].map((child) => child.stop(5_000)));
}

/** Clock ticks per second of /proc's times (USER_HZ, 100 on Linux). */
const CLOCK_TICKS = 100;

export function cpuSecondsOf(pid: number): number {
  // Fields 14 and 15 of /proc/<pid>/stat (utime, stime), counted after the command's ") ".
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/**
 * Starts `command args` with stdout and stderr appended to `logFile`; resolves once the log
 * matches `ready` (with the match), rejects if it exits first or after `timeoutMs`.
 */
export async function startLogged(
  name: string,
  command: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; logFile: string; ready: RegExp; timeoutMs?: number },
): Promise<{ process: LoggedProcess; match: RegExpMatchArray }> {
  const fd = openSync(options.logFile, "a");
  const child = spawn(command, args, { cwd: ROOT, env: options.env, stdio: ["ignore", fd, fd] });
  closeSync(fd);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code, signal) => resolve(code ?? (signal ? 128 : null))));
  void exited.then(() => live.delete(processHandle));
  const log = () => {
    try {
      return readFileSync(options.logFile, "utf8");
    } catch {
      return "";
    }
  };
  const stop = async (graceMs = 15_000) => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    }
    return exited;
  };
  const processHandle: LoggedProcess = { name, pid: child.pid!, child, logFile: options.logFile, log, cpuSeconds: () => cpuSecondsOf(child.pid!), stop };
  live.add(processHandle);
  const deadline = Date.now() + (options.timeoutMs ?? 180_000);
  for (;;) {
    const match = log().match(options.ready);
    if (match) return { process: processHandle, match };
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before it was ready; its log (${options.logFile}):\n${tail(log())}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${name} was not ready after ${(options.timeoutMs ?? 180_000) / 1000} s; its log (${options.logFile}):\n${tail(log())}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export const tail = (text: string, lines = 40) => text.split("\n").slice(-lines).join("\n");

/** A minimal environment: what any process needs, none of this shell's settings of the service. */
export function baseEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of ["PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "TZ", "USER"]) if (process.env[name] !== undefined) env[name] = process.env[name];
  return env;
}
