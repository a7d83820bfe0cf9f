import type { Services } from "../src/services";
import { FUSION } from "../src/search/hybrid-fusion";
import { ENDPOINTS, columnLabel, summarise, type Column, type QueryOutcome } from "./harness";
import { measure, type ImportedRun } from "./measure";

// `--tune` and `--tune-vocabulary`: one line per setting, scored on the tuning columns only. The
// held-out figure of each setting is printed last, to be read once a setting has been chosen from
// the tuning figures, never to choose one.

const f = (value: number) => value.toFixed(2);

/** Settings tried by `--tune`; docs/search.md records what they gave. */
const GRID = {
  similarityZero: [0.15, 0.25],
  vectorWeight: [0.5, 0.6, 0.7],
  minScore: [0.1, 0.15, 0.2],
};

/** `--tune-vocabulary`: the weight of a word matched through the workspace's vocabulary (0: vocabulary off). */
const VOCABULARY_WEIGHTS = [0, 0.5, 0.8, 0.9, 1];

interface Scored {
  /** Every tuning column's outcomes together. */
  tuning: QueryOutcome[];
  /** Results returned for the unrelated queries of the sets that have tuning queries. */
  unrelated: number;
  heldOut: Column[];
}

async function scoreSetting(services: Services, runs: ImportedRun[]): Promise<Scored> {
  const measured = await measure(services, runs);
  const tuningSets = new Set(measured.columns.filter((c) => c.half === "tuning").map((c) => c.set));
  return {
    tuning: measured.columns.filter((c) => c.half === "tuning").flatMap((c) => c.outcomes),
    unrelated: measured.reports
      .filter(({ set }) => tuningSets.has(set))
      .flatMap(({ report }) => report.unrelated)
      .reduce((sum, u) => sum + u.artifacts + u.memories + u.queryIntelligence, 0),
    heldOut: measured.columns.filter((c) => c.half === "held-out"),
  };
}

const endpointFigures = (outcomes: QueryOutcome[]) => ENDPOINTS.map((endpoint) => summarise(outcomes, (o) => o.endpoint === endpoint).service);
const meanHit3 = (outcomes: QueryOutcome[]) => endpointFigures(outcomes).reduce((sum, e) => sum + e.hit3, 0) / ENDPOINTS.length;
const heldOutCell = (scored: Scored) => scored.heldOut.map((column) => f(meanHit3(column.outcomes))).join(" · ");
const heldOutHeader = (scored: Scored) => `held-out mean hit@3, not for choosing (${scored.heldOut.map(columnLabel).join(" · ")})`;

export async function tune(services: Services, runs: ImportedRun[]): Promise<void> {
  let header = false;
  for (const similarityZero of GRID.similarityZero) {
    for (const vectorWeight of GRID.vectorWeight) {
      for (const minScore of GRID.minScore) {
        Object.assign(FUSION, { similarityZero, vectorWeight, textWeight: 1 - vectorWeight, minScore });
        const scored = await scoreSetting(services, runs);
        if (!header) {
          console.log(`similarityZero vectorWeight minScore | tuning hit@3: artifacts (paraphrase) memories queryIntelligence | mean | unrelated results | ${heldOutHeader(scored)}`);
          header = true;
        }
        const endpoints = endpointFigures(scored.tuning).map((e) => e.hit3);
        const paraphrase = summarise(scored.tuning, (o) => o.endpoint === "artifacts" && o.query.kind === "paraphrase").service.hit3;
        const mean = endpoints.reduce((a, b) => a + b, 0) / endpoints.length;
        console.log(
          `${similarityZero} ${vectorWeight} ${minScore} | ${f(endpoints[0]!)} (${f(paraphrase)}) ${f(endpoints[1]!)} ${f(endpoints[2]!)} | ${f(mean)} | ${scored.unrelated} | ${heldOutCell(scored)}`,
        );
      }
    }
  }
}

export async function tuneVocabulary(services: Services, runs: ImportedRun[]): Promise<void> {
  const chosen = FUSION.vocabularyWeight;
  let header = false;
  for (const vocabularyWeight of VOCABULARY_WEIGHTS) {
    FUSION.vocabularyWeight = vocabularyWeight;
    const scored = await scoreSetting(services, runs);
    if (!header) {
      console.log(`vocabularyWeight | tuning hit@3: artifacts (paraphrase) memories queryIntelligence | tuning MRR@10: artifacts memories queryIntelligence | unrelated results | ${heldOutHeader(scored)}`);
      header = true;
    }
    const endpoints = endpointFigures(scored.tuning);
    const paraphrase = summarise(scored.tuning, (o) => o.endpoint === "artifacts" && o.query.kind === "paraphrase").service.hit3;
    console.log(
      `${vocabularyWeight} | ${f(endpoints[0]!.hit3)} (${f(paraphrase)}) ${f(endpoints[1]!.hit3)} ${f(endpoints[2]!.hit3)} | ${endpoints.map((e) => f(e.mrr10)).join(" ")} | ${scored.unrelated} | ${heldOutCell(scored)}`,
    );
  }
  FUSION.vocabularyWeight = chosen;
}
