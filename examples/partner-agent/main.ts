import { runPartnerAgent } from "./agent";
import { describeFailure } from "./connection-error";

const baseUrl = process.env.BASE_URL ?? "http://localhost:3000";

/**
 * Runs the example agent once against a running service:
 *   BASE_URL=http://localhost:3000 API_KEY=wsi_… npm run example:agent -- "How did enterprise churn move last quarter?"
 */
async function main(): Promise<void> {
  const apiKey = process.env.API_KEY;
  if (!apiKey) {
    console.error("Set API_KEY to a workspace key (npm run dev prints one on its first start).");
    process.exit(2);
  }
  const outcome = await runPartnerAgent({
    baseUrl,
    apiKey,
    question: process.argv.slice(2).join(" ") || "How did enterprise churn move last quarter?",
    dataSource: process.env.DATA_SOURCE,
    pollIntervalMs: Number(process.env.POLL_INTERVAL_MS ?? 5000),
    timeoutMs: Number(process.env.TIMEOUT_MS ?? 10 * 60_000),
    log: (line) => console.log(line),
  });
  console.log(JSON.stringify(outcome));
}

main().catch((error: unknown) => {
  console.error(describeFailure(error, baseUrl));
  process.exit(1);
});
