import type { Measured } from "./load";

// The Markdown table of one size on one engine: for fetch and search at 1 and 32 connections, and
// push at 1, the service's figures beside its floor's, both ratios in one stated direction, and
// the targets.

export interface Pair {
  kind: "fetch" | "search" | "push";
  connections: number;
  service: Measured;
  floor: Measured;
}

export const TARGETS = {
  fetchThroughput: 0.7,
  searchP50: (size: number) => (size >= 100_000 ? 3 : 2),
  searchP90: (size: number) => (size >= 100_000 ? 3 : 2.5),
  pushP50Ms: 5,
  /** Search p50 while the service embeds an import ÷ idle. */
  busySearchP50: 2,
  /** Seconds from an import's answer until its artifacts are all findable by meaning (1,000 of them). */
  findableSeconds: 30,
};

const ms = (value: number | null) => (value === null || !Number.isFinite(value) ? "—" : value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2));
const mark = (ok: boolean) => (ok ? "✔" : "✘");
const times = (value: number | null) => (value === null || !Number.isFinite(value) ? "—" : `${value.toFixed(2)}×`);

function latencies(kind: Pair["kind"], m: Measured): string {
  return kind === "search" ? `${ms(m.p50)} / ${ms(m.p90)} / ${ms(m.p95)}` : `${ms(m.p50)} / ${ms(m.p95)}`;
}

/** The targets this figure is held to, each with ✔ or ✘; and whether all were met. */
function verdict(pair: Pair, size: number): { text: string; met: boolean } {
  const checks: Array<[string, boolean]> = [];
  if (pair.kind === "fetch") {
    const ratio = pair.service.perSecond / pair.floor.perSecond;
    checks.push([`req/s ≥ ${TARGETS.fetchThroughput}×: ${times(ratio)}`, ratio >= TARGETS.fetchThroughput]);
  } else if (pair.kind === "push") {
    checks.push([`p50 ≤ ${TARGETS.pushP50Ms} ms: ${ms(pair.service.p50)} ms`, pair.service.p50 <= TARGETS.pushP50Ms]);
  } else if (pair.connections === 1) {
    const p50 = pair.service.p50 / pair.floor.p50;
    const p90 = pair.service.p90 / pair.floor.p90;
    checks.push([`p50 ≤ ${TARGETS.searchP50(size)}×: ${times(p50)}`, p50 <= TARGETS.searchP50(size)]);
    checks.push([`p90 ≤ ${TARGETS.searchP90(size)}×: ${times(p90)}`, p90 <= TARGETS.searchP90(size)]);
  }
  for (const [who, m] of [["service", pair.service], ["floor", pair.floor]] as const) {
    if (m.non2xx > 0 || m.errors > 0) checks.push([`${who}: ${m.non2xx} non-2xx (${JSON.stringify(m.statuses)}), ${m.errors} errors`, false]);
  }
  const lexical = pair.service.searchModes.lexical ?? 0;
  const text = checks.map(([label, ok]) => `${mark(ok)} ${label}`).join("; ") || "—";
  return { text: lexical > 0 ? `${text}; ⚠ ${lexical} of ${pair.service.answered} answers lexical (the query's vector came too late)` : text, met: checks.every(([, ok]) => ok) };
}

export function table(size: number, pairs: Pair[], push: Pair): { lines: string[]; met: boolean } {
  const row = (cells: string[]) => `| ${cells.join(" | ")} |`;
  let met = true;
  const lines = [
    row([
      "figure",
      "service p50 / (p90 /) p95 ms",
      "service req/s",
      "service CPU ms/req",
      "floor p50 / (p90 /) p95 ms",
      "floor req/s",
      "floor CPU ms/req",
      "latency ratio: service p50 ÷ floor p50 (lower is better)",
      "throughput ratio: service req/s ÷ floor req/s (higher is better)",
      "targets",
    ]),
    row(Array.from({ length: 10 }, () => "---")),
  ];
  for (const pair of [...pairs, push]) {
    const { text, met: ok } = verdict(pair, size);
    met &&= ok;
    lines.push(
      row([
        `${pair.kind}, ${pair.connections} conn`,
        latencies(pair.kind, pair.service),
        pair.service.perSecond.toFixed(0),
        ms(pair.service.cpuMsPerRequest),
        latencies(pair.kind, pair.floor),
        pair.floor.perSecond.toFixed(0),
        ms(pair.floor.cpuMsPerRequest),
        times(pair.service.p50 / pair.floor.p50),
        times(pair.service.perSecond / pair.floor.perSecond),
        text,
      ]),
    );
  }
  return { lines, met };
}
