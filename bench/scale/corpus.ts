import {
  CORE_DEFINITIONS,
  CORE_METRICS,
  CORE_SEGMENTS,
  DOMAINS,
  MOVES,
  PERIODS,
  REGIONS,
  pick,
  randomFrom,
  wordList,
  zipfSampler,
  type Random,
  type WordList,
} from "./vocabulary";

// What the seeded rows say. Every text is built from one template sentence (embedded once by the
// real model) plus words drawn from the workspace's Zipf vocabulary; the row's vector is that
// template's vector nudged towards two of its words (seed.ts), so rows about one thing cluster
// the way real embeddings do and a real question lands near the rows that answer it.

export type TemplateKind = "statement" | "definition" | "question";

export interface Template {
  kind: TemplateKind;
  text: string;
  /** The domain it belongs to; core definitions belong to every domain. */
  domain: number | "core";
  metric: string;
  segment: string;
  region: string;
}

export interface Corpus {
  words: WordList;
  templates: Template[];
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const STATEMENT_FRAMES: Array<(m: string, move: string, s: string, r: string, p: string, own: string) => string> = [
  (m, move, s, r, p) => `${capitalised(m)} ${move} for ${s} in ${r} ${p}`,
  (m, move, s, r, p) => `${capitalised(s)} in ${r} saw ${m} ${move} ${p}`,
  (m, move, s, r, p) => `${capitalised(m)} among ${s} ${move} ${p}, mostly in ${r}`,
  (m, move, s, r, p, own) => `${capitalised(own)} ${move} in ${r} ${p} while ${m} held steady for ${s}`,
];
const QUESTION_FRAMES: Array<(m: string, s: string, r: string, p: string) => string> = [
  (m, s, r, p) => `How did ${m} change for ${s} in ${r} ${p}?`,
  (m, s, r, p) => `Which ${s} in ${r} had the highest ${m} ${p}?`,
  (m, s, r) => `${capitalised(m)} by week for ${s} in ${r}`,
  (m, s, r, p) => `What drove the change in ${m} for ${s} in ${r} ${p}?`,
];

/** A few hundred template sentences: per domain 24 statements and 12 questions, and the definitions. */
export function buildCorpus(): Corpus {
  const templates: Template[] = [];
  const seen = new Set<string>();
  const add = (template: Template) => {
    if (!seen.has(template.text)) templates.push(template), seen.add(template.text);
  };
  for (const text of CORE_DEFINITIONS) add({ kind: "definition", text, domain: "core", metric: text.split(" ")[0]!.toLowerCase(), segment: "", region: "" });
  DOMAINS.forEach((domain, d) => {
    const random = randomFrom(`templates:${d}`);
    const metric = () => (random() < 0.6 ? pick(random, CORE_METRICS) : pick(random, domain.metrics));
    const segment = () => (random() < 0.6 ? pick(random, CORE_SEGMENTS) : pick(random, domain.segments));
    for (const text of domain.definitions) add({ kind: "definition", text, domain: d, metric: pick(random, domain.metrics), segment: "", region: "" });
    for (let i = 0; i < 24; i++) {
      const [m, s, r] = [metric(), segment(), pick(random, REGIONS)];
      const text = STATEMENT_FRAMES[i % STATEMENT_FRAMES.length]!(m, pick(random, MOVES), s, r, pick(random, PERIODS), pick(random, domain.metrics));
      add({ kind: "statement", text, domain: d, metric: m, segment: s, region: r });
    }
    for (let i = 0; i < 12; i++) {
      const [m, s, r] = [metric(), segment(), pick(random, REGIONS)];
      add({ kind: "question", text: QUESTION_FRAMES[i % QUESTION_FRAMES.length]!(m, s, r, pick(random, PERIODS)), domain: d, metric: m, segment: s, region: r });
    }
  });
  return { words: wordList(), templates };
}

/** ~50 questions an analyst asks, in the seeded vocabulary (core metrics, segments, regions, the software domain's words). */
export const ANALYST_QUESTIONS = [
  "Why did churn rise for enterprise accounts in EMEA last quarter?",
  "Which regions saw trial conversions drop after the price change?",
  "How did net revenue retention change for annual contracts?",
  "What drove the spike in support tickets from self-serve users?",
  "Refunds by region over the holidays",
  "Are mobile customers in Japan churning faster than last year?",
  "What happened to gross margin in Germany in Q2?",
  "Which new cohorts have the lowest renewal rate?",
  "Did the redesign hurt signups in North America?",
  "Compare ad spend and customer acquisition cost in APAC",
  "Why is average order value falling for returning buyers?",
  "Seat expansion among startups this month",
  "Which integrations do workspace admins adopt first?",
  "Plan upgrades for small businesses in the UK",
  "How much revenue came from partners in Latin America?",
  "Invoice disputes by billing plan in France",
  "What is our NRR for enterprise accounts in Canada?",
  "Is CAC going up for students in India?",
  "Active users on mobile since the redesign",
  "Feature adoption of dashboards by new cohorts",
  "Did the discount campaign lift trial conversions in Brazil?",
  "Churned accounts with open support tickets",
  "Renewals at risk for annual contracts in Australia",
  "Order volume year over year for small businesses",
  "Why did signups stall in APAC in Q1?",
  "Which segments drive most of the revenue growth?",
  "Gross margin by product line last quarter",
  "How do refunds relate to delivery delays?",
  "Ad spend efficiency by campaign and region",
  "Retention of self-serve users after onboarding changes",
  "Enterprise pipeline forecast versus actual revenue",
  "Which partners bring the highest average order value?",
  "Trial to paid conversion for workspace admins",
  "Licences unused by enterprise accounts in Germany",
  "What explains the drop in active users over the holidays?",
  "Support ticket backlog by region this month",
  "Churn among mobile customers after the price change",
  "Revenue per seat for startups in North America",
  "Connectors with the most failed syncs",
  "How did billing errors affect renewals?",
  "Customer acquisition cost by marketing channel",
  "Net revenue retention trend year over year",
  "Which cohorts upgraded plans after the redesign?",
  "Refund rate for returning buyers in the UK",
  "Signups from partners versus paid campaigns",
  "Where is gross margin recovering after the price change?",
  "Engagement of students with dashboards",
  "Seasonality of order volume in EMEA",
  "Contracts that doubled seats this quarter",
  "Why did revenue fall for small businesses in Japan?",
];

/** Text of one artifact, and which template and words its two vectors lean towards. */
export interface ArtifactText {
  template: number;
  summary: string;
  why: string;
  keyFindings: string[];
  recommendation: string;
  headlineWords: [number, number];
  bodyWords: [number, number];
}

export type MemoryType = "finding" | "rule" | "definition" | "preference" | "correction" | "context";

export interface MemoryText {
  template: number;
  type: MemoryType;
  statement: string;
  goingForward: string | null;
  words: [number, number];
}

export interface PatternText {
  template: number;
  question: string;
  sql: string;
  resultSummary: string;
  successCount: number;
  words: [number, number];
}

export interface LearningText {
  template: number;
  failedSql: string;
  errorMessage: string;
  learning: string;
  words: [number, number];
}

const MEMORY_TYPES: Array<[MemoryType, number]> = [["finding", 0.35], ["rule", 0.5], ["definition", 0.65], ["preference", 0.75], ["correction", 0.85], ["context", 1]];
const CLAUSES = [
  (a: string, b: string) => `tied to ${a} and ${b}`,
  (a: string, b: string) => `with ${a} ${b} as the main driver`,
  (a: string, b: string) => `mostly around ${a} and ${b}`,
  (a: string, b: string) => `after changes to ${a} and ${b}`,
];
const identifier = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_|_$/g, "");

/**
 * The texts of one workspace of a domain: templates of its domain (and the core definitions),
 * the commoner ones used more, and its words drawn from its Zipf vocabulary.
 */
export function workspaceWriter(corpus: Corpus, domain: number) {
  const { words } = corpus.words;
  const sample = zipfSampler(corpus.words, domain);
  const own = (kind: TemplateKind) => corpus.templates.flatMap((t, i) => (t.kind === kind && (t.domain === domain || t.domain === "core") ? [i] : []));
  const byKind = { statement: own("statement"), definition: own("definition"), question: own("question") };
  // A few topics dominate a workspace, as in real ones: template i of a kind weighs 1/(i+1)^0.6.
  const template = (random: Random, kind: TemplateKind) => {
    const ids = byKind[kind];
    const weights = ids.map((_, i) => 1 / (i + 1) ** 0.6);
    let target = random() * weights.reduce((sum, w) => sum + w, 0);
    for (let i = 0; i < ids.length; i++) if ((target -= weights[i]!) <= 0) return ids[i]!;
    return ids[ids.length - 1]!;
  };
  const draw = (random: Random, count: number) => Array.from({ length: count }, () => sample(random));

  return {
    artifact(random: Random): ArtifactText {
      const id = template(random, "statement");
      const t = corpus.templates[id]!;
      const w = draw(random, 10);
      const [a, b, c, d, e, f, g, h, i, j] = w.map((at) => words[at]!);
      return {
        template: id,
        summary: `${t.text}, ${pick(random, CLAUSES)(a!, b!)}`,
        why: `${capitalised(t.metric)} moved after ${c} and ${d} changed; ${e}, ${f} and ${g} mattered most for ${t.segment} in ${t.region}. ` +
          `The ${h} figures were checked against ${i} and ${j} from the warehouse before the review.`,
        keyFindings: [`${capitalised(t.metric)} changed by ${Math.floor(random() * 40) + 2}%`, `largest among ${t.segment} in ${t.region}`],
        recommendation: `Review ${a} and ${e} with the owners of ${t.segment}.`,
        headlineWords: [w[0]!, w[1]!],
        bodyWords: [w[2]!, w[3]!],
      };
    },

    memory(random: Random): MemoryText {
      const roll = random();
      const type = MEMORY_TYPES.find(([, upTo]) => roll < upTo)![0];
      const id = template(random, type === "definition" ? "definition" : "statement");
      const t = corpus.templates[id]!;
      const w = draw(random, 4);
      const [a, b, c, d] = w.map((at) => words[at]!);
      const statement = {
        finding: `${t.text}, ${pick(random, CLAUSES)(a!, b!)}.`,
        rule: `${t.text}: always report ${t.metric} by ${a} and exclude ${b} accounts.`,
        definition: `${t.text}, excluding ${a} and ${b}.`,
        preference: `${t.text}; the team prefers charts of ${t.metric} by ${a}, not by ${b}.`,
        correction: `${t.text}, but ${t.metric} was overstated because ${a} and ${b} were counted twice.`,
        context: `${t.text}, during the ${a} ${b} project.`,
      }[type];
      const goingForward = type === "rule" || type === "correction" || type === "preference" ? `Going forward, check ${c} and ${d} before quoting ${t.metric}.` : null;
      return { template: id, type, statement, goingForward, words: [w[0]!, w[1]!] };
    },

    pattern(random: Random): PatternText {
      const id = template(random, "question");
      const t = corpus.templates[id]!;
      const w = draw(random, 4);
      const [a, b, c] = w.map((at) => words[at]!);
      const table = `fct_${identifier(t.metric)}`;
      return {
        template: id,
        question: `${t.text.replace(/\?$/, "")}, split by ${a} and ${b}`,
        sql: `SELECT date_trunc('week', event_date) AS week, ${identifier(a!)}_id, sum(${identifier(t.metric)}) AS total FROM ${table} ` +
          `WHERE region = '${t.region}' AND segment = '${identifier(t.segment)}' AND ${identifier(b!)}_flag GROUP BY 1, 2 ORDER BY 1`,
        resultSummary: `${Math.floor(random() * 200) + 5} rows; ${t.metric} highest where ${c} was set`,
        successCount: Math.floor(1 / (random() + 0.02)),
        words: [w[0]!, w[1]!],
      };
    },

    learning(random: Random): LearningText {
      const id = template(random, "question");
      const t = corpus.templates[id]!;
      const w = draw(random, 2);
      const [a, b] = w.map((at) => words[at]!);
      return {
        template: id,
        failedSql: `SELECT ${identifier(a!)} FROM fct_${identifier(t.metric)} WHERE region = '${t.region}'`,
        errorMessage: `column "${identifier(a!)}" does not exist`,
        learning: `For "${t.text}", ${identifier(a!)} lives in dim_${identifier(b!)}; join on ${identifier(b!)}_id first.`,
        words: [w[0]!, w[1]!],
      };
    },
  };
}

export type WorkspaceWriter = ReturnType<typeof workspaceWriter>;
