import { runPipelineBench } from "./pipeline-bench";
import { runSearchBench } from "./search-bench";

// `npm run bench`: figures for docs/performance.md. Never part of `npm test`.
// BENCH_DATABASE_URL adds a run on that PostgreSQL server (its public schema is dropped!);
// BENCH_ONLY=pipeline|search runs one part.
async function main(): Promise<void> {
  const only = process.env.BENCH_ONLY;
  if (only !== "search") {
    const tables = [...(await runPipelineBench(undefined))];
    if (process.env.BENCH_DATABASE_URL) tables.push(...(await runPipelineBench(process.env.BENCH_DATABASE_URL)));
    console.log(tables.join("\n"));
  }
  if (only !== "pipeline") await runSearchBench();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
