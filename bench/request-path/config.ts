import path from "node:path";

// The bench's settings, all from the environment (see the header of bench/request-path.ts).

export const ROOT = path.resolve(__dirname, "..", "..");

function numberList(text: string): number[] {
  const sizes = text.split(",").map((part) => Number(part.trim()));
  for (const size of sizes) if (!Number.isInteger(size) || size <= 0) throw new Error(`BENCH_SIZES: ${JSON.stringify(text)} is not a list of positive integers`);
  return sizes;
}

/** The node that runs every process the bench starts (server, floors, load): BENCH_NODE, else this one. */
function measuringNode(): string {
  return process.env.BENCH_NODE || process.execPath;
}

export const settings = {
  /** Workspace sizes, in artifacts. */
  sizes: numberList(process.env.BENCH_SIZES ?? "1000,10000"),
  /** Seconds per load figure. */
  seconds: Number(process.env.BENCH_SECONDS ?? 10),
  /**
   * Rounds of the service's figures then the floors', each ratio the median of its rounds': this
   * machine's speed drifts from minute to minute, and the service and its floor cannot run at
   * once (the embedded engine has one owner), so one round's ratio moved by a third between runs.
   */
  rounds: Number(process.env.BENCH_ROUNDS ?? 3),
  /** Seconds of warm-up load before each server's first figure of a kind (not counted). */
  warmupSeconds: Number(process.env.BENCH_WARMUP_SECONDS ?? 2),
  /** PostgreSQL (its public schema is dropped); unset, the embedded engine only. */
  databaseUrl: process.env.BENCH_DATABASE_URL || undefined,
  /** BENCH_ENGINES=embedded,postgres (default: embedded, and postgres when BENCH_DATABASE_URL is set). */
  engines: (process.env.BENCH_ENGINES ?? (process.env.BENCH_DATABASE_URL ? "embedded,postgres" : "embedded")).split(",").map((e) => e.trim()) as Array<"embedded" | "postgres">,
  /** From this many artifacts on, the artifact vectors are written from a pool of model vectors (seed.ts), on either engine. */
  poolFrom: Number(process.env.BENCH_POOL_FROM ?? 10_000),
  /** Texts embedded by the real model for that pool. */
  poolTexts: Number(process.env.BENCH_POOL_TEXTS ?? 2_000),
  /** Import request budget: the service's JSON body limit is 1 MB. */
  importPartBytes: 900_000,
  node: measuringNode(),
  /** Keep the processes' logs (their directory is printed). */
  keepLogs: process.env.BENCH_KEEP_LOGS === "1",
};

for (const engine of settings.engines) if (engine !== "embedded" && engine !== "postgres") throw new Error(`BENCH_ENGINES: unknown engine ${engine}`);
if (settings.engines.includes("postgres") && !settings.databaseUrl) throw new Error("BENCH_ENGINES names postgres: set BENCH_DATABASE_URL");
if (!(settings.seconds > 0)) throw new Error("BENCH_SECONDS must be a positive number");
if (!Number.isInteger(settings.rounds) || settings.rounds < 1 || settings.rounds % 2 === 0) throw new Error("BENCH_ROUNDS must be an odd positive integer, so that a median is one round");
