import autocannon from "autocannon";
import { distinctQuestion } from "./distinct-questions";

// A load generator in a process of its own, as an outside bench runs one: autocannon against a
// running server, each request a different question. Started by `outsideLoad` (client-view.ts);
// reads its settings from the environment and prints one JSON line of figures on stdout.

async function main() {
  const base = process.env.LOAD_BASE!;
  const connections = Number(process.env.LOAD_CONNECTIONS);
  const seconds = Number(process.env.LOAD_SECONDS);
  const firstQuestion = Number(process.env.LOAD_FIRST_QUESTION ?? 0);
  let q = firstQuestion;
  const result = await autocannon({
    url: base,
    connections,
    duration: seconds,
    headers: { authorization: process.env.LOAD_AUTHORIZATION! },
    requests: [{ setupRequest: (request) => ({ ...request, path: `/api/v1/artifacts?query=${encodeURIComponent(distinctQuestion(q++))}&limit=10` }) }],
  });
  const answered = result.requests.total;
  process.stdout.write(
    `${JSON.stringify({ requests: answered, perSecond: answered / seconds, p50: result.latency.p50, max: result.latency.max, non2xx: result.non2xx, errors: result.errors })}\n`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
