import { OWN_INDEX_MIN_VECTORS } from "../../src/indexing/vector-index-maintenance";
import { DOMAINS } from "./vocabulary";
import type { WorkspacePlan } from "./seed";

// What one run of `npm run bench:scale` seeds and measures, from the environment.

export const PARTS = ["artifacts", "memories", "patterns", "recall", "writes", "idle"] as const;
export type Part = (typeof PARTS)[number];

export interface ScaleConfig {
  databaseUrl: string;
  large: number;
  smallCount: number;
  small: number;
  recallSizes: number[];
  requests: number;
  warmup: number;
  parts: Set<Part>;
  /** Clients and seconds of the concurrent figure. */
  connections: number;
  concurrentMs: number;
  /** Turns each side takes at the concurrent figure; the median ratio counts. */
  concurrentRounds: number;
  pushes: number;
  importArtifacts: number;
  imports: number;
  /** Lists read to try on the large workspace's own indexes, besides what the service reads (SCALE_PROBES). */
  probeSweep: number[];
  /** Whether the Procfile's `worker` runs on the big database while searches are measured (SCALE_WORKER, default on). */
  worker: boolean;
}

/** The sizes the issue names, and both sides of the size past which a workspace gets its own index (a seeded artifact has two vectors). */
const DEFAULT_RECALL_SIZES = [500, 2_000, 2_100, OWN_INDEX_MIN_VECTORS.postgres / 2, OWN_INDEX_MIN_VECTORS.postgres / 2 + 1, 7_500, 10_000];

export class ConfigError extends Error {}

function count(env: NodeJS.ProcessEnv, name: string, fallback: number, minimum = 1): number {
  const text = env[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < minimum) throw new ConfigError(`${name} must be an integer of at least ${minimum}, not "${text}"`);
  return value;
}

export function readConfig(env: NodeJS.ProcessEnv): ScaleConfig {
  const databaseUrl = env.BENCH_DATABASE_URL;
  if (!databaseUrl) {
    throw new ConfigError(
      "BENCH_DATABASE_URL is required: a PostgreSQL server with pgvector whose public schema this bench DROPS and re-migrates " +
        "(and on which it creates a second database for the baseline), e.g. the last line of `../shared/tools/postgres start /tmp/scalepg`.",
    );
  }
  const only = (env.SCALE_ONLY ?? "").split(/[,|]/).map((part) => part.trim()).filter(Boolean);
  const unknown = only.filter((part) => !(PARTS as readonly string[]).includes(part));
  if (unknown.length > 0) throw new ConfigError(`SCALE_ONLY: unknown part ${unknown.join(", ")}; the parts are ${PARTS.join(", ")}`);
  const probeSweep = (env.SCALE_PROBES ?? "").split(",").map((part) => part.trim()).filter(Boolean).map(Number);
  if (probeSweep.some((probes) => !Number.isInteger(probes) || probes < 1)) throw new ConfigError(`SCALE_PROBES must be positive integers, not "${env.SCALE_PROBES}"`);
  const recallSizes = (env.SCALE_RECALL_SIZES ?? DEFAULT_RECALL_SIZES.join(",")).split(",").map((size) => Number(size.trim()));
  if (recallSizes.some((size) => !Number.isInteger(size) || size < 1)) throw new ConfigError(`SCALE_RECALL_SIZES must be positive integers, not "${env.SCALE_RECALL_SIZES}"`);
  return {
    databaseUrl,
    large: count(env, "SCALE_LARGE", 100_000),
    smallCount: count(env, "SCALE_SMALL_COUNT", 100),
    small: count(env, "SCALE_SMALL", 1_000),
    recallSizes,
    requests: count(env, "SCALE_REQUESTS", 300),
    warmup: count(env, "SCALE_WARMUP", 30, 0),
    parts: new Set((only.length > 0 ? only : PARTS) as Part[]),
    connections: 8,
    concurrentMs: count(env, "SCALE_CONCURRENT_MS", 10_000),
    concurrentRounds: count(env, "SCALE_CONCURRENT_ROUNDS", 3),
    pushes: 200,
    importArtifacts: 1_000,
    imports: count(env, "SCALE_IMPORTS", 5),
    probeSweep,
    worker: (env.SCALE_WORKER ?? "on") !== "off",
  };
}

/** The workspaces every measured case reads: one domain, each its own texts, except the twin and the baseline, which share theirs. */
export interface Plans {
  big: WorkspacePlan[];
  baseline: WorkspacePlan[];
  large: WorkspacePlan;
  twin: WorkspacePlan;
  onePastSmall: WorkspacePlan;
  recall: WorkspacePlan[];
}

export function plansOf(config: ScaleConfig): Plans {
  const measured = (name: string, artifacts: number, extras: number): WorkspacePlan => ({ name, domain: 0, artifacts, memories: extras, patterns: extras, content: name });
  const large = measured(`large ${config.large}`, config.large, config.large);
  const twin = measured(`small ${config.small}`, config.small, config.small);
  const onePastSmall = measured(`small + 1`, config.small + 1, Math.ceil((config.small + 1) / 10));
  const recall = config.recallSizes.map((size) => measured(`recall ${size}`, size, Math.ceil(size / 10)));
  // The other small workspaces write about the other domains, with fewer memories and patterns.
  const others = Array.from({ length: config.smallCount - 1 }, (_, i) => ({
    name: `small ${i + 2}`,
    domain: 1 + (i % (DOMAINS.length - 1)),
    artifacts: config.small,
    memories: Math.ceil(config.small / 10),
    patterns: Math.ceil(config.small / 10),
    content: `small ${i + 2}`,
  }));
  return { big: [large, twin, onePastSmall, ...recall, ...others], baseline: [twin], large, twin, onePastSmall, recall };
}
