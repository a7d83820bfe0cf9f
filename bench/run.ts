import { runClientView } from "./client-view";
import { runFootprintBench } from "./footprint-bench";
import { runPipelineBench } from "./pipeline-bench";
import { runSearchBench } from "./search-bench";

// `npm run bench`: figures for docs/performance.md and docs/deployment.md. Never part of `npm test`.
// BENCH_DATABASE_URL adds runs on that PostgreSQL server (its public schema is dropped!);
// BENCH_ONLY=pipeline|client|search|footprint runs one part.
const PARTS = ["pipeline", "client", "search", "footprint"] as const;

async function main(): Promise<void> {
  const only = process.env.BENCH_ONLY;
  if (only && !(PARTS as readonly string[]).includes(only)) throw new Error(`BENCH_ONLY must be one of ${PARTS.join(", ")}, not "${only}"`);
  const runs = (part: (typeof PARTS)[number]) => !only || only === part;
  const databases = [undefined, process.env.BENCH_DATABASE_URL].filter((url, index) => index === 0 || url);
  const tables: string[] = [];
  for (const url of databases) {
    if (runs("pipeline")) tables.push(...(await runPipelineBench(url)));
    if (runs("client")) tables.push(...(await runClientView(url)));
    if (runs("footprint")) tables.push(...(await runFootprintBench(url)));
  }
  if (tables.length > 0) console.log(tables.join("\n"));
  if (runs("search")) await runSearchBench();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
