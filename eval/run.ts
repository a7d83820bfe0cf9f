import os from "node:os";
import { embeddedDatabase } from "../src/db/database";
import { openMemoryDatabase } from "../src/db/embedded-database";
import { applyMigrations } from "../src/db/migrations";
import { LocalEmbeddings } from "../src/embeddings/local-embeddings";
import { systemClock } from "../src/lib/clock";
import { createLogger } from "../src/lib/logger";
import { createServices } from "../src/services";
import { EVAL_SET_DIRS, loadJudgedSet } from "./judged-set";
import { busyMachine, busyWanted } from "./busy-machine";
import { importRuns, measure } from "./measure";
import { MemoizingEmbeddings } from "./memoizing-embeddings";
import { printChecks, printColumn, printMisses, printSummary } from "./report";
import { tune, tuneVocabulary } from "./tune";
import { compareLatency, runVariants } from "./variants";

// `npm run eval [set-dir…] [--misses[=all]] [--tune | --tune-vocabulary]`: imports each judged set
// (by default eval/cobalt-cycles, split in a tuning and a held-out half, eval/fenmoor-health, tuning
// whole, and eval/larchmont-software, held-out whole) into its own workspace of a fresh embedded
// database through the real import service, embeds it with the real local model, runs every judged
// query through the services behind REST, and prints the service's figures beside a BM25 baseline
// per set and half, then hit@3 of all of them side by side. `--misses` lists the tuning columns'
// misses only: whoever tunes the ranking must not read the held-out ones; `--misses=all` lists every
// set's. `--tune` and `--tune-vocabulary` sweep weights instead, scored on the tuning columns
// (eval/tune.ts); `--variants[=name,…]` measures named settings side by side, aggregates only (eval/variants.ts).
// `--busy[=N]` runs the judged queries with N processes (default 2) spinning at normal priority, as
// on a machine shared with other work; the report counts the searches ranked by words alone.

function missesWanted(args: string[]): "tuning" | "all" | undefined {
  const flag = args.find((arg) => arg === "--misses" || arg.startsWith("--misses="));
  if (flag === undefined) return undefined;
  if (flag === "--misses") return "tuning";
  if (flag === "--misses=all") return "all";
  throw new Error(`${flag}: use --misses (the tuning columns) or --misses=all`);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const dirs = args.filter((arg) => !arg.startsWith("--"));
  const sets = (dirs.length > 0 ? dirs : EVAL_SET_DIRS).map((dir) => loadJudgedSet(dir));
  const misses = missesWanted(args);
  const embedded = await openMemoryDatabase();
  await applyMigrations(embedded.executor);
  const database = embeddedDatabase(embedded);
  const embeddings = new MemoizingEmbeddings(new LocalEmbeddings());
  const services = createServices({ database, clock: systemClock, logger: createLogger("silent"), embeddings });
  try {
    const runs = await importRuns(services, sets);
    if (args.includes("--tune")) return await tune(services, runs);
    if (args.includes("--tune-vocabulary")) return await tuneVocabulary(services, runs);
    const latency = args.find((arg) => arg === "--latency" || arg.startsWith("--latency="));
    if (latency) return await compareLatency(services, runs, latency.includes("=") ? latency.split("=")[1]!.split(",") : undefined);
    const variants = args.find((arg) => arg === "--variants" || arg.startsWith("--variants="));
    if (variants) return await runVariants(services, runs, variants.includes("=") ? variants.split("=")[1]!.split(",") : undefined);
    const busy = busyMachine(busyWanted(args));
    const started = Date.now();
    const { reports, columns } = await measure(services, runs).finally(() => busy.stop());
    const sizes = runs.map(({ set, indexedMs }, i) => `"${set.name}" ${reports[i]!.report.outcomes.length} queries (import + embedding ${indexedMs} ms)`);
    console.log(`judged sets: ${sizes.join(", ")}; queries ${Date.now() - started} ms`);
    for (const { set, report } of reports) {
      for (const column of columns.filter((c) => c.set === set)) printColumn(column);
      printChecks(set, report);
    }
    printSummary(columns);
    // A busy machine shows here first: a query whose vector came too late was ranked by words alone.
    const lexical = columns.flatMap((c) => c.outcomes).filter((o) => o.ranked.searchMode === "lexical").length;
    const load = os.loadavg().map((figure) => figure.toFixed(1)).join(" ");
    console.log(`\nsearches ranked by words alone (search mode lexical): ${lexical} of ${columns.flatMap((c) => c.outcomes).length}; load average ${load}`);
    if (misses) {
      console.log(misses === "tuning" ? "\nmisses of the tuning columns (--misses=all: every set)" : "\nmisses of every set");
      printMisses(misses === "all" ? columns : columns.filter((c) => c.half === "tuning"));
    }
  } finally {
    await embeddings.close();
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
