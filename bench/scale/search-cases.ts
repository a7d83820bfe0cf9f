import { ANALYST_QUESTIONS } from "./questions";
import { concurrent, percentile, sequential, type BenchApp, type Latencies } from "./measure";
import { ms, ratio, table, thousands, type Targets } from "./report";
import { DATA_SOURCE_NAME } from "./seed";

// The read endpoints against the workspaces of both databases, each case beside the baseline:
// the same-shaped workspace alone in its own database.

export type Endpoint = "artifacts" | "memories" | "patterns";

const question = (i: number) => encodeURIComponent(ANALYST_QUESTIONS[i % ANALYST_QUESTIONS.length]!);

/** Request i of a case asks question i (cycled): every case sees the same sequence. */
export const ENDPOINT_PATHS: Record<Endpoint, (i: number) => string> = {
  artifacts: (i) => `/api/v1/artifacts?query=${question(i)}&limit=10`,
  memories: (i) => `/api/v1/memories?query=${question(i)}`,
  patterns: (i) => `/api/v1/data-sources/${DATA_SOURCE_NAME}/query-intelligence?question=${question(i)}`,
};

export const ENDPOINT_TITLES: Record<Endpoint, string> = {
  artifacts: "Artifact search, `GET /api/v1/artifacts?query=…&limit=10`",
  memories: "Memory recall, `GET /api/v1/memories?query=…`",
  patterns: `Query intelligence, \`GET /api/v1/data-sources/${DATA_SOURCE_NAME}/query-intelligence?question=…\``,
};

export interface Case {
  name: string;
  /** Rows of the measured kind in the workspace. */
  size: number;
  database: "baseline" | "big";
  app: BenchApp;
  workspaceId: string;
  /** Most the case may take, as a multiple of the baseline's p50 and p95. */
  target?: { p50: number; p95?: number };
}

export interface Settings {
  requests: number;
  warmup: number;
}

/** A sample of the workspace's validated artifacts, for fetch by id. */
async function artifactIds(app: BenchApp, workspaceId: string, count: number): Promise<string[]> {
  const rows = await app.services.database.prisma.$queryRawUnsafe<Array<{ id: string }>>(
    "SELECT id FROM artifacts WHERE workspace_id = $1 AND status = 'validated' ORDER BY md5(id) LIMIT $2",
    workspaceId,
    count,
  );
  return rows.map((row) => row.id);
}

/** One table: each case's p50 and p95 against the first case's (the baseline), and for artifacts fetch by id. */
export async function measureEndpoint(endpoint: Endpoint, cases: Case[], settings: Settings, targets: Targets): Promise<string> {
  const measured: Array<{ figures: Latencies; fetch?: Latencies }> = [];
  for (const each of cases) {
    const auth = await each.app.authFor(each.workspaceId);
    const figures = await sequential(each.app.base, auth, ENDPOINT_PATHS[endpoint], settings.warmup, settings.requests);
    let fetch: Latencies | undefined;
    if (endpoint === "artifacts") {
      const ids = await artifactIds(each.app, each.workspaceId, settings.requests);
      fetch = await sequential(each.app.base, auth, (i) => `/api/v1/artifacts/${ids[i % ids.length]}`, settings.warmup, settings.requests);
    }
    measured.push({ figures, fetch });
  }
  const baseline = measured[0]!.figures;
  const rows = cases.map((each, i) => {
    const { figures, fetch } = measured[i]!;
    const [p50, p95] = [figures.p50 / baseline.p50, figures.p95 / baseline.p95];
    const target = each.target;
    const goal = i === 0 ? "baseline" : target ? `p50 ≤ ${target.p50}×${target.p95 ? `, p95 ≤ ${target.p95}×` : ""}` : "";
    const verdict = target ? targets.check(`${endpoint} ${each.name}`, p50 <= target.p50 && (target.p95 === undefined || p95 <= target.p95)) : "";
    return [
      each.name, thousands(each.size), each.database === "baseline" ? "alone" : "big", ms(figures.p50), ms(figures.p95),
      i === 0 ? "1.00×" : ratio(p50), i === 0 ? "1.00×" : ratio(p95), ...(fetch ? [ms(fetch.p50)] : []), goal, verdict,
    ];
  });
  const headers = ["workspace", "rows", "database", "p50", "p95", "p50 ÷ baseline", "p95 ÷ baseline", ...(endpoint === "artifacts" ? ["fetch by id p50"] : []), "target", "✔/✘"];
  return `### ${ENDPOINT_TITLES[endpoint]}, ${settings.requests} requests a case after ${settings.warmup} warm-up, one connection\n\n${table(headers, rows)}`;
}

/**
 * Closed-loop load on several connections: the large workspace's throughput against the
 * baseline's. The two sides take turns, `rounds` times, and the median of the rounds' ratios is
 * the figure: on a shared 2-core machine one window's rate moves by 10–20% from one window to the
 * next (the baseline read 73 to 90 searches/s in consecutive 8 s windows), more than the target's
 * margin.
 */
export async function measureConcurrent(
  endpoint: Endpoint,
  baseline: Case,
  large: Case,
  { connections, durationMs, rounds }: { connections: number; durationMs: number; rounds: number },
  targets: Targets,
): Promise<string> {
  const sides: Array<{ base: string; auth: Record<string, string> }> = [];
  for (const each of [baseline, large]) {
    const auth = await each.app.authFor(each.workspaceId);
    await sequential(each.app.base, auth, ENDPOINT_PATHS[endpoint], connections, 0);
    sides.push({ base: each.app.base, auth });
  }
  const load = (side: (typeof sides)[number]) => concurrent(side.base, side.auth, ENDPOINT_PATHS[endpoint], connections, durationMs);
  const measured = [];
  for (let round = 0; round < rounds; round++) measured.push([await load(sides[0]!), await load(sides[1]!)] as const);
  const shares = measured.map(([alone, big]) => big.perSecond / alone.perSecond);
  const share = percentile(shares, 0.5);
  const rows = measured.map(([alone, big], i) => [
    String(i + 1),
    `${alone.perSecond.toFixed(1)}/s`, ms(alone.p50), ms(alone.p95),
    `${big.perSecond.toFixed(1)}/s`, ms(big.p50), ms(big.p95),
    ratio(shares[i]!),
  ]);
  const verdict = targets.check(`${endpoint} at ${connections} connections`, share >= 0.8);
  return (
    `### ${ENDPOINT_TITLES[endpoint]}, ${connections} connections, ${rounds} rounds of ${(durationMs / 1000).toFixed(0)} s a side\n\n` +
    `${baseline.name} (${thousands(baseline.size)} rows, alone) and ${large.name} (${thousands(large.size)} rows, big database) in turns.\n\n` +
    table(["round", "alone req/s", "alone p50", "alone p95", "big req/s", "big p50", "big p95", "big ÷ alone"], rows) +
    `\n\nMedian of the rounds: **${ratio(share)}** the baseline's rate (target ≥ 0.8×) ${verdict}`
  );
}
