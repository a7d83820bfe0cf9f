import type { z } from "zod";
import type { ImportDocumentSchema } from "../../src/contracts/import";

// A workspace as a customer's looks after months of use: artifacts whose bodies are element trees
// of a few KB (sections, prose, metric rows, tables, SQL evidence, callouts), memories, a data
// source with its schema and proven SQL; and the questions an agent asks of it, made from the same
// words. Searches and fetches measured on short synthetic texts, or asked questions whose words
// the corpus lacks, read far less than real ones do (docs/performance.md, "Request-path bench").

type ImportDocument = z.input<typeof ImportDocumentSchema>;
type ImportArtifact = NonNullable<ImportDocument["artifacts"]>[number];

const METRICS = ["churn", "net revenue retention", "gross margin", "trial conversion", "average order value", "support ticket volume", "ad spend", "refund rate", "daily active users", "expansion revenue", "payback period", "renewal rate", "signups", "seat utilisation", "invoice collection time"];
const SEGMENTS = ["enterprise accounts", "mid-market customers", "self-serve users", "new cohorts", "annual plans", "monthly plans", "partner-sourced deals", "education customers", "healthcare accounts", "agencies"];
const REGIONS = ["EMEA", "North America", "Japan", "Brazil", "Germany", "India", "the Nordics", "Australia", "France", "Mexico"];
const PERIODS = ["last quarter", "Q1", "Q2", "Q3", "the holiday season", "the first half", "since the price change", "after the redesign", "this month", "the fiscal year"];
const CAUSES = ["a pricing change", "a slower onboarding flow", "seasonal demand", "a competitor's discount", "a billing outage", "the new sales territory plan", "longer procurement cycles", "a marketing campaign", "a product launch", "currency movements", "a support backlog", "contract renegotiations"];
const VERBS = ["rose", "fell", "doubled", "halved", "recovered", "stalled", "accelerated", "slipped"];
const TABLES = ["subscriptions", "invoices", "accounts", "events", "tickets", "campaigns", "orders", "seats"];
const ASKS = ["why did", "what drove", "how did", "where did", "which accounts saw", "when did", "what explains", "how much did"];

/** A small deterministic generator (mulberry32), so that a seed gives the same workspace everywhere. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pickFrom = (random: () => number) => <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

/** The element tree of one artifact's body (contract §2.8), about 3 KB of JSON. */
function contentTree(random: () => number, topic: { metric: string; segment: string; region: string; period: string; cause: string; verb: string }, dataSource: string) {
  const pick = pickFrom(random);
  const table = pick(TABLES);
  const percent = () => `${(random() * 20).toFixed(1)}%`;
  const other = pick(REGIONS.filter((region) => region !== topic.region));
  const rows = Array.from({ length: 6 }, (_, i) => [pick(SEGMENTS), `${2026 - (i % 2)}-Q${1 + (i % 4)}`, Math.round(random() * 100_000), percent()]);
  return {
    root: "root",
    elements: {
      root: { type: "Section", props: { title: `${topic.metric} for ${topic.segment} in ${topic.region}` }, children: ["summary", "metrics", "drivers", "table", "evidence", "next", "sources"] },
      summary: {
        type: "Markdown",
        props: {
          content: `## What happened\n${topic.metric[0]!.toUpperCase()}${topic.metric.slice(1)} for ${topic.segment} in ${topic.region} ${topic.verb} during ${topic.period}, from ${percent()} to ${percent()}. The movement is concentrated in accounts onboarded in the last twelve months and is larger than in ${other}, where ${pick(METRICS)} held steady. We compared the ${table} table against the previous period and against the same period a year earlier to rule out seasonality.`,
        },
      },
      metrics: {
        type: "MetricRow",
        props: {
          items: [
            { label: topic.metric, value: percent(), change: `${random() > 0.5 ? "+" : "-"}${percent()}`, direction: random() > 0.5 ? "up" : "down" },
            { label: pick(METRICS), value: Math.round(random() * 10_000), change: percent(), direction: "neutral" },
            { label: `${pick(SEGMENTS)} share`, value: percent() },
          ],
        },
      },
      drivers: {
        type: "Markdown",
        props: {
          content: `## Drivers\n- The largest contributor is ${topic.cause}: it explains roughly ${percent()} of the change.\n- ${pick(CAUSES)[0]!.toUpperCase()}${pick(CAUSES).slice(1)} played a smaller part, mostly among ${pick(SEGMENTS)}.\n- ${pick(METRICS)[0]!.toUpperCase()}${pick(METRICS).slice(1)} moved in the same direction in ${other}, which suggests a shared cause rather than a regional one.\n- No data quality issue was found in ${table}: row counts match the billing system within 0.2%.`,
        },
      },
      table: {
        type: "DataTable",
        props: { caption: `${topic.metric} by segment and quarter`, columns: ["segment", "quarter", "accounts", topic.metric], rows },
      },
      evidence: {
        type: "SqlEvidence",
        props: {
          connectionName: dataSource,
          connectorType: "postgres",
          rowCount: rows.length,
          sql: `SELECT segment, date_trunc('quarter', period_start) AS quarter, count(DISTINCT account_id) AS accounts,\n       avg(${topic.metric.replace(/[^a-z]+/g, "_")}) AS value\nFROM analytics.${table}\nWHERE region = '${topic.region}' AND period_start >= dateadd('month', -12, current_date)\nGROUP BY 1, 2\nORDER BY 2, 1`,
        },
      },
      next: { type: "Callout", props: { type: "recommendation", text: `Review ${topic.cause} with the ${topic.region} team before the next planning cycle, and track ${topic.metric} weekly for ${topic.segment}.` } },
      sources: { type: "DataSourceList", props: { sources: [{ name: dataSource, type: "database" }] } },
    },
  };
}

/** The n-th artifact of a realistic workspace: a validated insight about one metric's movement, with a body of about 3 KB. */
export function realisticArtifact(n: number, dataSource = "warehouse"): ImportArtifact {
  const random = seededRandom(1_000 + n);
  const pick = pickFrom(random);
  const topic = { metric: pick(METRICS), segment: pick(SEGMENTS), region: pick(REGIONS), period: pick(PERIODS), cause: pick(CAUSES), verb: pick(VERBS) };
  return {
    summary: `${topic.metric[0]!.toUpperCase()}${topic.metric.slice(1)} ${topic.verb} for ${topic.segment} in ${topic.region} during ${topic.period}`,
    why: `The change in ${topic.metric} follows ${topic.cause}; it affects planning for ${topic.segment} and the ${topic.region} forecast.`,
    confidence: (0.5 + random() * 0.5).toFixed(2),
    confidenceExplanation: `Twelve months of ${pick(TABLES)} data, checked against the billing system.`,
    keyFindings: [`${topic.metric} ${topic.verb} by ${(random() * 20).toFixed(1)}%`, `Concentrated in ${topic.region}`, `Largest driver: ${topic.cause}`],
    recommendation: `Review ${topic.cause} with the ${topic.region} team.`,
    dataSources: [{ type: "database", name: dataSource }],
    content: contentTree(random, topic, dataSource),
    createdAt: Date.UTC(2026, 0, 1) + n * 3_600_000,
  };
}

/** A workspace's import document: `artifacts` realistic artifacts, `memories` memories, one data source with its schema and proven SQL. */
export function realisticWorkspace({ artifacts, memories = 200, from = 0 }: { artifacts: number; memories?: number; from?: number }): ImportDocument {
  const random = seededRandom(7);
  const pick = pickFrom(random);
  return {
    context: "A B2B SaaS company selling analytics seats; finance reports in USD, fiscal year starts in February.",
    memories: Array.from({ length: memories }, (_, i) => ({
      type: i % 3 === 0 ? "rule" : i % 3 === 1 ? "definition" : "preference",
      statement: `${pick(METRICS)[0]!.toUpperCase()}${pick(METRICS).slice(1)} for ${pick(SEGMENTS)} is reported ${pick(["weekly", "monthly", "per fiscal quarter"])} and excludes ${pick(["trial accounts", "internal test accounts", "refunded orders", "partner seats"])} in ${pick(REGIONS)}.`,
    })),
    dataSources: [
      {
        name: "warehouse",
        connectorType: "postgres",
        status: "connected",
        schema: TABLES.map((table) => ({ tableName: `analytics.${table}`, columns: ["account_id", "region", "segment", "period_start"].map((columnName) => ({ columnName, dataType: columnName === "period_start" ? "date" : "varchar" })) })),
        queryPatterns: Array.from({ length: 40 }, (_, i) => ({
          question: `${pick(ASKS)} ${pick(METRICS)} change for ${pick(SEGMENTS)} in ${pick(REGIONS)}`,
          sql: `SELECT region, segment, count(*) FROM analytics.${pick(TABLES)} GROUP BY 1, 2 -- ${i}`,
          successCount: 1 + Math.floor(random() * 20),
        })),
      },
    ],
    artifacts: Array.from({ length: artifacts }, (_, i) => realisticArtifact(from + i)),
  };
}

/**
 * The n-th question of a stream an agent might ask of a realistic workspace, from its own words:
 * a metric, often a segment, a region and a period. About 96,000 different questions; the stream
 * repeats one of the earlier questions every `repeatEvery`-th time (agents ask again), 1 in 5 by
 * default.
 */
export function realisticQuestion(n: number, repeatEvery = 5): string {
  if (repeatEvery > 0 && n % repeatEvery === repeatEvery - 1 && n > 0) return realisticQuestion(Math.floor(n / 2), 0);
  const random = seededRandom(99_000 + n);
  const pick = pickFrom(random);
  const parts = [pick(ASKS), pick(METRICS)];
  if (random() < 0.7) parts.push(`for ${pick(SEGMENTS)}`);
  if (random() < 0.8) parts.push(`in ${pick(REGIONS)}`);
  if (random() < 0.6) parts.push(pick(PERIODS));
  return parts.join(" ");
}
