import { readFileSync, readdirSync } from "node:fs";

/**
 * Set by the global setup for the whole run and inherited by every process a test starts, so the
 * global teardown can find and stop any that outlived its test.
 */
export const TEST_RUN_VARIABLE = "WSI_TEST_RUN";

/**
 * Processes that carry this run's marker in their environment and are neither this process nor a
 * jest worker: what tests started and nobody stopped (a worker killed mid-test cannot stop its
 * children). Linux only (/proc); elsewhere the per-worker cleanup is all there is.
 */
export function leftoverProcesses(variable: string, runId: string): Array<{ pid: number; command: string }> {
  const marker = `${variable}=${runId}`;
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const found: Array<{ pid: number; command: string }> = [];
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      if (!readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").includes(marker)) continue;
      const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
      if (command.includes("jest-worker")) continue;
      found.push({ pid, command });
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}
