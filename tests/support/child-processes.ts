import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { TEST_RUN_VARIABLE } from "./leftover-processes";

/** Every process this jest worker started and that has not exited. */
const alive = new Set<ChildProcess>();
// A worker that ends (or crashes a test file) takes what it started with it.
process.once("exit", () => {
  for (const child of alive) child.kill("SIGKILL");
});

/** `spawn`, remembered until it exits, carrying the run's marker. */
export function spawnTracked(command: string, args: string[], options: SpawnOptions): ChildProcess {
  const env = { ...(options.env ?? process.env), [TEST_RUN_VARIABLE]: process.env[TEST_RUN_VARIABLE] ?? "" };
  const child = spawn(command, args, { ...options, env });
  alive.add(child);
  child.once("exit", () => alive.delete(child));
  return child;
}

/** For afterEach/afterAll: stops whatever a test started and left running, even when it failed. */
export function killStartedProcesses(): void {
  for (const child of alive) child.kill("SIGKILL");
}
