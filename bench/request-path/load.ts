import { spawn } from "node:child_process";
import path from "node:path";
import { ROOT, settings } from "./config";
import type { LoadFigures, LoadSpec } from "./load-client";
import { baseEnvironment, type LoggedProcess } from "./processes";

// One load figure: load-client.ts in a process of its own against `server`, and the server
// process's CPU over it (from its /proc times, read as the client starts and as it reports).

export interface Measured extends LoadFigures {
  connections: number;
  /** CPU time of the server process (all its threads) per answered request, in ms. */
  cpuMsPerRequest: number;
  /** Cores the server process kept busy on average. */
  cores: number;
}

export async function measure(server: LoggedProcess, spec: LoadSpec): Promise<Measured> {
  const child = spawn(settings.node, ["--import", "tsx", path.join(__dirname, "load-client.ts")], {
    cwd: ROOT,
    env: { ...baseEnvironment(), LOAD_SPEC: JSON.stringify(spec) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += String(chunk)));
  let buffered = "";
  let cpuAtStart: number | undefined;
  let startedAt = 0;
  let figures: LoadFigures | undefined;
  let cpuAtEnd = 0;
  let endedAt = 0;
  child.stdout.on("data", (chunk) => {
    buffered += String(chunk);
    for (let newline = buffered.indexOf("\n"); newline >= 0; newline = buffered.indexOf("\n")) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      const parsed = JSON.parse(line) as { event?: string } & LoadFigures;
      if (parsed.event === "start") {
        cpuAtStart = server.cpuSeconds();
        startedAt = performance.now();
      } else {
        cpuAtEnd = server.cpuSeconds();
        endedAt = performance.now();
        figures = parsed;
      }
    }
  });
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0 || !figures || cpuAtStart === undefined) throw new Error(`the load client (${spec.kind} on the ${spec.target}) failed (exit ${code}):\n${stderr}`);
  const cpu = cpuAtEnd - cpuAtStart;
  return { ...figures, connections: spec.connections, cpuMsPerRequest: (cpu * 1000) / Math.max(1, figures.answered), cores: cpu / ((endedAt - startedAt) / 1000) };
}
