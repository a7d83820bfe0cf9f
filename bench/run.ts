import { runSearchBench } from "./search-bench";

// `npm run bench`: figures for docs/performance.md. Never part of `npm test`.
runSearchBench().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
