import type { Services } from "../src/services";
import { FUSION } from "../src/search/hybrid-fusion";
import { EXPANSION } from "../src/search/lexical-expansion";
import { HELD, VOCABULARY_RULES } from "../src/search/workspace-vocabulary";
import { ENDPOINTS, KINDS, columnLabel, summarise } from "./harness";
import { measure, type ImportedRun } from "./measure";

// `--variants[=name,…]`: the service measured under named settings, one after another on the same
// imported sets, each printed as every column's hit@3 (paraphrase), MRR@10 and secondary matches
// per endpoint, and the rows where it falls under BM25. Aggregates only: no query text is printed,
// so held-out columns can be read to keep or drop a change (docs/search.md, "Evaluation").

interface Variant {
  name: string;
  about: string;
  apply: () => void;
}

const defaults = {
  fusion: { ...FUSION },
  expansion: { ...EXPANSION },
  held: { ...HELD },
  rules: { ...VOCABULARY_RULES },
};
const reset = () => {
  Object.assign(FUSION, defaults.fusion);
  Object.assign(EXPANSION, defaults.expansion);
  Object.assign(HELD, defaults.held);
  Object.assign(VOCABULARY_RULES, defaults.rules);
};

export const VARIANTS: Variant[] = [
  { name: "current", about: "the service as configured", apply: () => undefined },
  { name: "no-expansion", about: "WordNet expansion off", apply: () => (EXPANSION.enabled = false) },
  { name: "definition-5-words", about: "a definition's first 5 words", apply: () => (VOCABULARY_RULES.definitionWords = 5) },
  { name: "last-round", about: "the last round's settings still switchable: no WordNet, definitions of 5 words", apply: () => {
    EXPANSION.enabled = false;
    VOCABULARY_RULES.definitionWords = 5;
  } },
  { name: "expansion-0.3", about: "WordNet words at 0.3", apply: () => Object.assign(FUSION, { expansionWeight: 0.3, derivedWeight: 0.3 }) },
  { name: "expansion-0.5", about: "WordNet words at 0.5", apply: () => Object.assign(FUSION, { expansionWeight: 0.5, derivedWeight: 0.5 }) },
  { name: "expansion-0.7", about: "WordNet words at 0.7", apply: () => Object.assign(FUSION, { expansionWeight: 0.7, derivedWeight: 0.7 }) },
  { name: "derived-0.6", about: "WordNet derivations and pertainyms at 0.6, synonyms as they are", apply: () => (FUSION.derivedWeight = 0.6) },
  { name: "derived-0.8", about: "WordNet derivations and pertainyms at 0.8, synonyms as they are", apply: () => (FUSION.derivedWeight = 0.8) },
  { name: "expansion-2-senses", about: "WordNet: first 2 senses per part of speech", apply: () => (EXPANSION.senses = 2) },
  { name: "no-vector-names", about: "the other name of an acronym not added to the query's vector", apply: () => (VOCABULARY_RULES.vectorNames = false) },
  { name: "acronym-held-half", about: "half of an acronym's name held (was two thirds)", apply: () => (HELD.acronym = 1 / 2) },
  { name: "vocabulary-0.8", about: "vocabulary weight 0.8 (was 0.9)", apply: () => (FUSION.vocabularyWeight = 0.8) },
  { name: "definition-8-words", about: "a definition's first 8 words (was 5)", apply: () => (VOCABULARY_RULES.definitionWords = 8) },
  { name: "vector-0.4", about: "vector weight 0.4, text 0.6", apply: () => Object.assign(FUSION, { vectorWeight: 0.4, textWeight: 0.6 }) },
  { name: "vector-0.6", about: "vector weight 0.6, text 0.4", apply: () => Object.assign(FUSION, { vectorWeight: 0.6, textWeight: 0.4 }) },
  // The halves alone, each with any score above 0 returned: what each contributes to the fusion.
  { name: "words-only", about: "the lexical score alone (meaning weighted 0)", apply: () => Object.assign(FUSION, { vectorWeight: 0, textWeight: 1, minScore: 1e-6 }) },
  { name: "meaning-only", about: "the semantic score alone (words weighted 0)", apply: () => Object.assign(FUSION, { vectorWeight: 1, textWeight: 0, minScore: 1e-6 }) },
];

const f = (value: number) => value.toFixed(2);

export async function runVariants(services: Services, runs: ImportedRun[], names: string[] | undefined): Promise<void> {
  const chosen = names ? names.map((name) => VARIANTS.find((v) => v.name === name) ?? { name, about: "?", apply: () => { throw new Error(`unknown variant ${name}`); } }) : VARIANTS;
  for (const variant of chosen) {
    reset();
    variant.apply();
    for (const { imported } of runs) services.vocabulary.forget(imported.workspaceId);
    const { reports, columns } = await measure(services, runs);
    console.log(`\n#### ${variant.name}: ${variant.about}`);
    console.log("| column | artifacts hit@3 (para) · MRR | memories hit@3 · MRR | QI hit@3 (para) · MRR | secondary art · mem · QI (BM25) | below BM25 |");
    console.log("|---|---|---|---|---|---|");
    for (const column of columns) {
      const cell = (endpoint: (typeof ENDPOINTS)[number]) => summarise(column.outcomes, (o) => o.endpoint === endpoint);
      const para = (endpoint: (typeof ENDPOINTS)[number]) => summarise(column.outcomes, (o) => o.endpoint === endpoint && o.query.kind === "paraphrase").service.hit3;
      const [a, m, q] = ENDPOINTS.map(cell) as [ReturnType<typeof cell>, ReturnType<typeof cell>, ReturnType<typeof cell>];
      const below = ENDPOINTS.flatMap((endpoint) =>
        [undefined, ...KINDS].flatMap((kind) => {
          const { service: s, bm25: b } = summarise(column.outcomes, (o) => o.endpoint === endpoint && (kind === undefined || o.query.kind === kind));
          return s.n > 0 && s.hit3 < b.hit3 ? [`${endpoint}${kind ? `/${kind}` : ""} ${f(s.hit3)}<${f(b.hit3)}`] : [];
        }),
      );
      const secondary = [a, m, q].map((e) => (e.service.secondaryN ? `${f(e.service.secondary3!)} (${f(e.bm25.secondary3!)})` : "–")).join(" · ");
      console.log(
        `| ${columnLabel(column)} | ${f(a.service.hit3)} (${f(para("artifacts"))}) · ${f(a.service.mrr10)} | ${f(m.service.hit3)} · ${f(m.service.mrr10)} | ${f(q.service.hit3)} (${f(para("queryIntelligence"))}) · ${f(q.service.mrr10)} | ${secondary} | ${below.join(", ") || "none"} |`,
      );
    }
    const unrelated = reports.map(({ set, report }) => `${set} ${report.unrelated.reduce((sum, u) => sum + u.artifacts + u.memories + u.queryIntelligence, 0)}`);
    const inactive = reports.reduce((sum, { report }) => sum + report.inactiveReturned, 0);
    console.log(`unrelated results: ${unrelated.join(", ")}; inactive memories returned: ${inactive}`);
  }
  reset();
}

/**
 * `--latency[=a,b]`: the time of every judged query under two settings (by default the service as
 * configured and WordNet expansion off), interleaved query by query in alternating order, so that
 * whatever else loads the machine falls on both alike. The query vectors are memoised after their
 * first use, so what is compared is what the settings change: expansion and the two statements.
 */
export async function compareLatency(services: Services, runs: ImportedRun[], names: string[] = ["current", "no-expansion"], rounds = 3): Promise<void> {
  const [a, b] = names.map((name) => VARIANTS.find((v) => v.name === name)!) as [Variant, Variant];
  const times: Record<string, number[]> = { [a.name]: [], [b.name]: [] };
  const timed = async (variant: Variant, call: () => Promise<unknown>) => {
    reset();
    variant.apply();
    const started = process.hrtime.bigint();
    await call();
    times[variant.name]!.push(Number(process.hrtime.bigint() - started) / 1e6);
  };
  let turn = 0;
  for (let round = 0; round < rounds; round++) {
    for (const { set, imported } of runs) {
      const calls = [
        ...set.judgements.artifacts.map((q) => () => services.artifacts.search({ keyId: "eval", keyName: "eval", workspaceId: imported.workspaceId, scopes: [] }, q.query, 10)),
        ...set.judgements.memories.map((q) => () => services.memories.recall(imported.workspaceId, q.query)),
        ...set.judgements.queryIntelligence.map((q) => () => services.dataSources.queryIntelligence(imported.workspaceId, q.dataSource ?? "", q.query)),
      ];
      for (const call of calls) {
        const [first, second] = turn++ % 2 === 0 ? [a, b] : [b, a];
        await timed(first, call);
        await timed(second, call);
      }
    }
  }
  reset();
  const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
  const p95 = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length * 0.95)]!;
  const [ta, tb] = [times[a.name]!, times[b.name]!];
  console.log(`searches (embedding memoised), ${ta.length} each, interleaved: ${a.name} p50 ${median(ta).toFixed(2)} ms p95 ${p95(ta).toFixed(2)} ms · ${b.name} p50 ${median(tb).toFixed(2)} ms p95 ${p95(tb).toFixed(2)} ms · ratio p50 ${(median(ta) / median(tb)).toFixed(2)}×`);
}
