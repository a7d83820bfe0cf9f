import { spawn, type ChildProcess } from "node:child_process";

/**
 * `count` processes that each keep one core busy at normal priority, as other work on a shared
 * machine (a dyno's neighbours) does: started after the judged sets are embedded, so that the
 * measurement is of searches on a busy machine, not of an import starved of CPU.
 */
export function busyMachine(count: number): { stop(): Promise<void> } {
  const spinners: ChildProcess[] = Array.from({ length: count }, () => spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }));
  return {
    async stop() {
      await Promise.all(
        spinners.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve();
              child.once("exit", () => resolve());
              child.kill("SIGKILL");
            }),
        ),
      );
    },
  };
}

/** `--busy=N` (N spinning processes; `--busy` alone: 2), or 0. */
export function busyWanted(args: string[]): number {
  const flag = args.find((arg) => arg === "--busy" || arg.startsWith("--busy="));
  if (flag === undefined) return 0;
  const count = flag === "--busy" ? 2 : Number(flag.split("=")[1]);
  if (!Number.isInteger(count) || count < 1 || count > 16) throw new Error(`${flag}: use --busy or --busy=N, N from 1 to 16`);
  return count;
}
