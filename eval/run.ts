import { embeddedDatabase } from "../src/db/database";
import { openMemoryDatabase } from "../src/db/embedded-database";
import { applyMigrations } from "../src/db/migrations";
import { LocalEmbeddings } from "../src/embeddings/local-embeddings";
import { systemClock } from "../src/lib/clock";
import { createLogger } from "../src/lib/logger";
import { createServices, type Services } from "../src/services";
import { FUSION } from "../src/search/hybrid-fusion";
import { ENDPOINTS, KINDS, evaluate, summarise, type EvalReport } from "./harness";
import { importJudgedSet, loadJudgedSet, type ImportedSet, type JudgedSet } from "./judged-set";
import { MemoizingEmbeddings } from "./memoizing-embeddings";

// `npm run eval [set-dir] [--misses]`: imports a judged set into a fresh embedded database through
// the real import service, embeds it with the real local model, runs every judged query through
// the services behind REST, and prints the service's figures beside a BM25 baseline. `--tune`
// instead sweeps the fusion weights over a small grid and prints one line per setting.

const f = (value: number) => value.toFixed(2);

function printTable(report: EvalReport): void {
  console.log("| endpoint · kind | n | hit@1 | hit@3 | MRR@10 | nDCG@10 | BM25 hit@1 | BM25 hit@3 | BM25 MRR@10 | BM25 nDCG@10 |");
  console.log("|---|---|---|---|---|---|---|---|---|---|");
  for (const endpoint of ENDPOINTS) {
    const rows: Array<[string, ReturnType<typeof summarise>]> = [[`**${endpoint}**`, summarise(report.outcomes, (o) => o.endpoint === endpoint)]];
    for (const kind of KINDS) rows.push([`· ${kind}`, summarise(report.outcomes, (o) => o.endpoint === endpoint && o.query.kind === kind)]);
    for (const [label, { service: s, bm25: b }] of rows) {
      if (s.n === 0) continue;
      console.log(`| ${label} | ${s.n} | ${f(s.hit1)} | ${f(s.hit3)} | ${f(s.mrr10)} | ${f(s.ndcg10)} | ${f(b.hit1)} | ${f(b.hit3)} | ${f(b.mrr10)} | ${f(b.ndcg10)} |`);
    }
  }
  const total = (pick: "artifacts" | "memories" | "queryIntelligence") => report.unrelated.reduce((sum, u) => sum + u[pick], 0);
  console.log(
    `\nunrelated queries (${report.unrelated.length}): results returned — artifacts ${total("artifacts")}, memories ${total("memories")}, query intelligence ${total("queryIntelligence")}`,
  );
  console.log(`inactive memories returned: ${report.inactiveReturned}`);
}

function printMisses(report: EvalReport): void {
  for (const o of report.outcomes.filter((o) => o.service.hit3 === 0)) {
    const top = o.ranked.keys.slice(0, 3).map((key, i) => `${key} ${o.ranked.scores[i]?.toFixed(3)}`).join(", ");
    console.log(`miss ${o.endpoint}/${o.query.kind} "${o.query.query}" want ${Object.keys(o.query.relevant).join("/")} got ${top || "nothing"}`);
  }
}

/** Settings tried by `--tune`; docs/search.md records what they gave. */
const GRID = {
  similarityZero: [0.15, 0.25],
  vectorWeight: [0.5, 0.6, 0.7],
  minScore: [0.1, 0.15, 0.2],
};

async function tune(services: Services, imported: ImportedSet, set: JudgedSet): Promise<void> {
  console.log("similarityZero vectorWeight minScore | hit@3 artifacts (paraphrase) memories queryIntelligence | mean | unrelated results");
  for (const similarityZero of GRID.similarityZero) {
    for (const vectorWeight of GRID.vectorWeight) {
      for (const minScore of GRID.minScore) {
        Object.assign(FUSION, { similarityZero, vectorWeight, textWeight: 1 - vectorWeight, minScore });
        const report = await evaluate(services, imported, set);
        const hit3 = (pick: (o: EvalReport["outcomes"][number]) => boolean) => summarise(report.outcomes, pick).service.hit3;
        const endpoints = ENDPOINTS.map((endpoint) => hit3((o) => o.endpoint === endpoint));
        const paraphrase = hit3((o) => o.endpoint === "artifacts" && o.query.kind === "paraphrase");
        const unrelated = report.unrelated.reduce((sum, u) => sum + u.artifacts + u.memories + u.queryIntelligence, 0);
        const mean = endpoints.reduce((a, b) => a + b, 0) / endpoints.length;
        console.log(`${similarityZero} ${vectorWeight} ${minScore} | ${f(endpoints[0]!)} (${f(paraphrase)}) ${f(endpoints[1]!)} ${f(endpoints[2]!)} | ${f(mean)} | ${unrelated}`);
      }
    }
  }
}

/** `--tune-vocabulary`: the weight of a word matched through the workspace's vocabulary (0: vocabulary off). */
const VOCABULARY_WEIGHTS = [0, 0.5, 0.8, 0.9, 1];

async function tuneVocabulary(services: Services, imported: ImportedSet, set: JudgedSet): Promise<void> {
  console.log("vocabularyWeight | hit@3 artifacts (paraphrase) memories queryIntelligence | MRR@10 artifacts memories queryIntelligence | unrelated results");
  const chosen = FUSION.vocabularyWeight;
  for (const vocabularyWeight of VOCABULARY_WEIGHTS) {
    FUSION.vocabularyWeight = vocabularyWeight;
    const report = await evaluate(services, imported, set);
    const figures = (pick: (o: EvalReport["outcomes"][number]) => boolean) => summarise(report.outcomes, pick).service;
    const endpoints = ENDPOINTS.map((endpoint) => figures((o) => o.endpoint === endpoint));
    const paraphrase = figures((o) => o.endpoint === "artifacts" && o.query.kind === "paraphrase").hit3;
    const unrelated = report.unrelated.reduce((sum, u) => sum + u.artifacts + u.memories + u.queryIntelligence, 0);
    console.log(
      `${vocabularyWeight} | ${f(endpoints[0]!.hit3)} (${f(paraphrase)}) ${f(endpoints[1]!.hit3)} ${f(endpoints[2]!.hit3)} | ${endpoints.map((e) => f(e.mrr10)).join(" ")} | ${unrelated}`,
    );
  }
  FUSION.vocabularyWeight = chosen;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const set = loadJudgedSet(args.find((arg) => !arg.startsWith("--")));
  const embedded = await openMemoryDatabase();
  await applyMigrations(embedded.executor);
  const database = embeddedDatabase(embedded);
  const embeddings = new MemoizingEmbeddings(new LocalEmbeddings());
  const services = createServices({ database, clock: systemClock, logger: createLogger("silent"), embeddings });
  try {
    const started = Date.now();
    const imported = await importJudgedSet(services, set);
    const indexedMs = Date.now() - started;
    if (args.includes("--tune")) return await tune(services, imported, set);
    if (args.includes("--tune-vocabulary")) return await tuneVocabulary(services, imported, set);
    const report = await evaluate(services, imported, set);
    console.log(`judged set "${set.name}": ${report.outcomes.length} queries; import + embedding ${indexedMs} ms; queries ${Date.now() - started - indexedMs} ms\n`);
    printTable(report);
    if (args.includes("--misses")) printMisses(report);
  } finally {
    await embeddings.close();
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
