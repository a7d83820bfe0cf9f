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

/** Several hundred template sentences: per domain 48 statements and 16 questions, and the definitions. */
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
    for (let i = 0; i < 48; i++) {
      const [m, s, r] = [metric(), segment(), pick(random, REGIONS)];
      const text = STATEMENT_FRAMES[i % STATEMENT_FRAMES.length]!(m, pick(random, MOVES), s, r, pick(random, PERIODS), pick(random, domain.metrics));
      add({ kind: "statement", text, domain: d, metric: m, segment: s, region: r });
    }
    for (let i = 0; i < 16; i++) {
      const [m, s, r] = [metric(), segment(), pick(random, REGIONS)];
      add({ kind: "question", text: QUESTION_FRAMES[i % QUESTION_FRAMES.length]!(m, s, r, pick(random, PERIODS)), domain: d, metric: m, segment: s, region: r });
    }
  });
  return { words: wordList(), templates };
}

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
const WHY_FRAMES: Array<(t: Template, w: string[]) => string> = [
  (t, [c, d, e, f, g, h, i, j]) =>
    `${capitalised(t.metric)} moved after ${c} and ${d} changed; ${e}, ${f} and ${g} mattered most for ${t.segment} in ${t.region}. ` +
    `The ${h} figures were checked against ${i} and ${j} before the review.`,
  (t, [c, d, e, f, g, h, i, j]) =>
    `${capitalised(t.segment)} in ${t.region} drove most of the change: ${c} and ${d} shifted first, then ${e}, ${f} and ${g}. ` +
    `Figures come from the ${h} and ${i} tables, reconciled with ${j}.`,
  (t, [c, d, e, f, g, h, i, j]) =>
    `Compared with the previous period, ${t.metric} moved with ${c}, ${d} and ${e}. The effect is concentrated in ${t.segment} ` +
    `(${t.region}), where ${f} and ${g} changed; ${h}, ${i} and ${j} were ruled out.`,
];
const identifier = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_|_$/g, "");

function shuffled<T>(list: T[], random: Random): T[] {
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/**
 * The texts of one workspace of a domain, its words drawn from its Zipf vocabulary. Its templates
 * are every template of a kind, its own domain's (and the core definitions) first, in an order of
 * the domain's; template i weighs 1/(i + 1)^0.6, so that a workspace writes mostly about its own
 * subject and a few topics dominate, as in real ones, and about anything now and then.
 */
export function workspaceWriter(corpus: Corpus, domain: number) {
  const { words } = corpus.words;
  const sample = zipfSampler(corpus.words, domain);
  const ranked = (kind: TemplateKind) => {
    const random = randomFrom(`order:${domain}:${kind}`);
    const ids = corpus.templates.flatMap((t, i) => (t.kind === kind ? [i] : []));
    const own = (id: number) => [domain, "core"].includes(corpus.templates[id]!.domain);
    const order = [...shuffled(ids.filter(own), random), ...shuffled(ids.filter((id) => !own(id)), random)];
    let total = 0;
    return { order, cumulative: order.map((_, i) => (total += 1 / (i + 1) ** 0.6)) };
  };
  const byKind = { statement: ranked("statement"), definition: ranked("definition"), question: ranked("question") };
  const template = (random: Random, kind: TemplateKind) => {
    const { order, cumulative } = byKind[kind];
    const target = random() * cumulative[cumulative.length - 1]!;
    return order[Math.min(order.length - 1, cumulative.findIndex((upTo) => upTo >= target))]!;
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
        why: pick(random, WHY_FRAMES)(t, [c, d, e, f, g, h, i, j] as string[]),
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
