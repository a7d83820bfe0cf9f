import { ENDPOINTS, KINDS, columnLabel, summarise, type Column, type EvalReport, type QueryOutcome } from "./harness";

// What `npm run eval` prints: one full table per column (a set, or one half of a split set), the
// unrelated and inactive checks per set, then hit@3 of every column side by side.

const f = (value: number) => value.toFixed(2);

/** Rows of every table: each endpoint, then its query kinds. */
function rows(): Array<{ label: string; pick: (o: QueryOutcome) => boolean }> {
  return ENDPOINTS.flatMap((endpoint) => [
    { label: `**${endpoint}**`, pick: (o: QueryOutcome) => o.endpoint === endpoint },
    ...KINDS.map((kind) => ({ label: `· ${kind}`, pick: (o: QueryOutcome) => o.endpoint === endpoint && o.query.kind === kind })),
  ]);
}

export function printColumn(column: Column): void {
  const topics = [...new Set(column.outcomes.map((o) => o.query.topic).filter((t) => t !== undefined))].sort();
  console.log(`\n### ${columnLabel(column)}: ${column.outcomes.length} queries${topics.length > 0 ? ` (topics: ${topics.join(", ")})` : ""}\n`);
  console.log("| endpoint · kind | n | hit@1 | hit@3 | MRR@10 | nDCG@10 | BM25 hit@1 | BM25 hit@3 | BM25 MRR@10 | BM25 nDCG@10 |");
  console.log("|---|---|---|---|---|---|---|---|---|---|");
  for (const { label, pick } of rows()) {
    const { service: s, bm25: b } = summarise(column.outcomes, pick);
    if (s.n === 0) continue;
    console.log(`| ${label} | ${s.n} | ${f(s.hit1)} | ${f(s.hit3)} | ${f(s.mrr10)} | ${f(s.ndcg10)} | ${f(b.hit1)} | ${f(b.hit3)} | ${f(b.mrr10)} | ${f(b.ndcg10)} |`);
  }
  const secondary = ENDPOINTS.map((endpoint) => {
    const { service: s, bm25: b } = summarise(column.outcomes, (o) => o.endpoint === endpoint);
    return `${endpoint} ${s.secondaryN === 0 ? "–" : `${f(s.secondary3!)} / ${f(b.secondary3!)} (${s.secondaryN})`}`;
  });
  console.log(`\nsecondary matches (queries that grade an item 1: a grade-1 item in the top 3), service / BM25: ${secondary.join(" · ")}`);
}

export function printChecks(set: string, report: EvalReport): void {
  const total = (pick: "artifacts" | "memories" | "queryIntelligence") => report.unrelated.reduce((sum, u) => sum + u[pick], 0);
  console.log(
    `\n${set}: unrelated queries (${report.unrelated.length}): results returned — artifacts ${total("artifacts")}, memories ${total("memories")}, query intelligence ${total("queryIntelligence")}; inactive memories returned: ${report.inactiveReturned}`,
  );
}

/**
 * hit@3, service / BM25, of every row in every column. A row where the service ranks below the
 * baseline is marked: a ranking change is kept only if no held-out row gains a mark (docs/search.md).
 */
export function printSummary(columns: Column[]): void {
  console.log(`\n### hit@3, service / BM25 (n); "below" marks the service under BM25\n`);
  console.log(`| endpoint · kind | ${columns.map(columnLabel).join(" | ")} |`);
  console.log(`|---|${columns.map(() => "---|").join("")}`);
  for (const { label, pick } of rows()) {
    const cells = columns.map((column) => {
      const { service: s, bm25: b } = summarise(column.outcomes, pick);
      if (s.n === 0) return "–";
      return `${f(s.hit3)} / ${f(b.hit3)} (${s.n})${s.hit3 < b.hit3 ? " **below**" : ""}`;
    });
    console.log(`| ${label} | ${cells.join(" | ")} |`);
  }
  for (const endpoint of ENDPOINTS) {
    const cells = columns.map((column) => {
      const { service: s, bm25: b } = summarise(column.outcomes, (o) => o.endpoint === endpoint);
      if (s.secondaryN === 0) return "–";
      return `${f(s.secondary3!)} / ${f(b.secondary3!)} (${s.secondaryN})${s.secondary3! < b.secondary3! ? " **below**" : ""}`;
    });
    console.log(`| ${endpoint}: secondary matches (grade 1 in top 3) | ${cells.join(" | ")} |`);
  }
}

/** Queries whose answer is not in the service's top three, with what came instead. */
export function printMisses(columns: Column[]): void {
  for (const column of columns) {
    for (const o of column.outcomes.filter((o) => o.service.hit3 === 0)) {
      const top = o.ranked.keys.slice(0, 3).map((key, i) => `${key} ${o.ranked.scores[i]?.toFixed(3)}`).join(", ");
      console.log(`miss ${columnLabel(column)} ${o.endpoint}/${o.query.kind} "${o.query.query}" want ${Object.keys(o.query.relevant).join("/")} got ${top || "nothing"}`);
    }
  }
}
