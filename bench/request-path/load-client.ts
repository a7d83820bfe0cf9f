import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import { realisticArtifact, realisticQuestion } from "../../tests/support/realistic-workspace";

// The load generator, in a process of its own (started by load.ts): autocannon with `connections`
// keep-alive connections for `seconds`, every request built as it is sent (setupRequest), so each
// has its own path or body. Prints `{"event":"start"}` as it starts and one JSON line of figures
// at the end; every latency is kept (autocannon's summary has no p95).

export interface LoadSpec {
  base: string;
  connections: number;
  seconds: number;
  headers: Record<string, string>;
  kind: "search" | "fetch" | "push";
  target: "service" | "floor";
  /** search: the first question of the stream (realisticQuestion). */
  firstQuestion?: number;
  /** fetch: a JSON file of artifact ids, asked in turn. */
  idsFile?: string;
  /** push: the first realisticArtifact pushed. */
  firstArtifact?: number;
}

export interface LoadFigures {
  answered: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statuses: Record<string, number>;
  elapsedSeconds: number;
  perSecond: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  max: number;
  /** Mean bytes of an answer (headers and body). */
  meanBytes: number;
  /** search on the service: X-Search-Mode of the answers (hybrid, or lexical when the query's vector came too late). */
  searchModes: Record<string, number>;
  /** search: the next question not sent (the stream went from firstQuestion to it). */
  nextQuestion: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;

/** A realistic artifact as an agent pushes it: the import-only fields left out. */
function pushBody(n: number): string {
  const { createdAt: _createdAt, ...artifact } = realisticArtifact(n) as Record<string, unknown>;
  return JSON.stringify(artifact);
}

async function main() {
  const spec = JSON.parse(process.env.LOAD_SPEC!) as LoadSpec;
  let question = spec.firstQuestion ?? 0;
  let artifact = spec.firstArtifact ?? 0;
  const ids = spec.idsFile ? (JSON.parse(readFileSync(spec.idsFile, "utf8")) as string[]) : [];
  let nextId = 0;
  const searchModes: Record<string, number> = {};
  const path = (): { method?: "POST"; path: string; body?: string; headers?: Record<string, string> } => {
    switch (spec.kind) {
      case "search": {
        const text = encodeURIComponent(realisticQuestion(question++));
        return { path: spec.target === "service" ? `/api/v1/artifacts?query=${text}` : `/search?q=${text}` };
      }
      case "fetch": {
        const id = encodeURIComponent(ids[nextId++ % ids.length]!);
        return { path: spec.target === "service" ? `/api/v1/artifacts/${id}` : `/a/${id}` };
      }
      case "push":
        return { method: "POST", path: spec.target === "service" ? "/api/v1/artifacts" : "/p", body: pushBody(artifact++), headers: { ...spec.headers, "content-type": "application/json" } };
    }
  };
  const latencies: number[] = [];
  let bytes = 0;
  const statuses: Record<string, number> = {};
  process.stdout.write(`${JSON.stringify({ event: "start" })}\n`);
  let finished!: (result: autocannon.Result) => void;
  let failed!: (error: unknown) => void;
  const done = new Promise<autocannon.Result>((resolve, reject) => ((finished = resolve), (failed = reject)));
  const instance = autocannon({
    url: spec.base,
    connections: spec.connections,
    duration: spec.seconds,
    timeout: 60,
    headers: spec.headers,
    requests: [
      {
        setupRequest: (request) => ({ ...request, ...path() }),
        onResponse: (_status, _body, _context, headers) => {
          if (spec.kind !== "search" || spec.target !== "service") return;
          const mode = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === "x-search-mode")?.[1];
          const key = typeof mode === "string" ? mode : "none";
          searchModes[key] = (searchModes[key] ?? 0) + 1;
        },
      },
    ],
  }, (error, result) => (error ? failed(error) : finished(result)));
  instance.on("response", (_client: unknown, statusCode: number, responseBytes: number, responseTime: number) => {
    latencies.push(responseTime);
    bytes += responseBytes;
    statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
  });
  const result = await done;
  latencies.sort((a, b) => a - b);
  const answered = latencies.length;
  const elapsedSeconds = result.duration;
  const figures: LoadFigures = {
    answered,
    non2xx: Object.entries(statuses).reduce((sum, [status, count]) => (Number(status) >= 200 && Number(status) < 300 ? sum : sum + count), 0),
    errors: result.errors,
    timeouts: result.timeouts,
    statuses,
    elapsedSeconds,
    perSecond: answered / elapsedSeconds,
    p50: percentile(latencies, 50),
    p90: percentile(latencies, 90),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    max: latencies[answered - 1] ?? NaN,
    meanBytes: bytes / Math.max(1, answered),
    searchModes,
    nextQuestion: question,
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
