import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { load, median } from "./load";
import { benchArtifact, pendingVectors } from "./pipeline-bench";
import { startServerProcess, type ServerProcess } from "./server-process";

// `npx tsx bench/telemetry-cost.ts`: what telemetry costs a request. Two server processes on the
// embedded database, started in the same run from the same code: one with telemetry off (the
// default), one with TELEMETRY=on exporting traces and metrics over OTLP/HTTP (protobuf, the
// default) to a sink on a loopback port that reads and drops them, and serving Prometheus text.
// Each gets the same 300 validated artifacts; then search and fetch by id are timed at one
// connection, the two servers in turn, ROUNDS times, and the medians of the rounds' p50 reported.
// Not part of `npm test`.

const ARTIFACTS = 300;
const ROUNDS = 3;
const ROUND_MS = 4_000;
const QUERIES = ["churn in EMEA", "refunds in Japan", "ad spend went up", "late renewals", "pricing page"];

async function startSink(): Promise<{ endpoint: string; received: () => number; close: () => Promise<void> }> {
  let received = 0;
  const server = createServer((req, res) => {
    req.on("data", () => undefined);
    req.on("end", () => {
      received += 1;
      res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A workspace with a key and ARTIFACTS validated artifacts, all embedded; the ids to fetch. */
async function fill(server: ServerProcess): Promise<{ auth: Record<string, string>; ids: string[] }> {
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${server.base}${path}`, { method: "POST", headers: server.admin, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  const workspace = await post("/admin/v1/workspaces", { name: "telemetry cost" });
  const key = await post(`/admin/v1/workspaces/${workspace.id}/keys`, { name: "bench" });
  await post(`/admin/v1/workspaces/${workspace.id}/import`, {
    artifacts: Array.from({ length: ARTIFACTS }, (_, n) => ({ ...benchArtifact(n), status: "validated" })),
  });
  while ((await pendingVectors(server, workspace.id as string)) > 0) await new Promise((resolve) => setTimeout(resolve, 500));
  const auth = { authorization: `Bearer ${key.key}` };
  const ids = new Set<string>();
  for (const query of QUERIES) {
    const found = (await (await fetch(`${server.base}/api/v1/artifacts?query=${encodeURIComponent(query)}&limit=20`, { headers: auth })).json()) as { results: Array<{ id: string }> };
    for (const result of found.results) ids.add(result.id);
  }
  return { auth, ids: [...ids] };
}

async function main(): Promise<void> {
  const sink = await startSink();
  // The per-key limit would refuse a client back to back for seconds on end.
  const unlimited = { RATE_LIMIT_PER_KEY: "1000000000" };
  const off = await startServerProcess(undefined, { ...unlimited, TELEMETRY: "off" });
  const on = await startServerProcess(undefined, {
    ...unlimited,
    TELEMETRY: "on",
    OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint,
    OTEL_METRICS_EXPORTER: "otlp,prometheus",
    OTEL_EXPORTER_PROMETHEUS_HOST: "127.0.0.1",
    OTEL_EXPORTER_PROMETHEUS_PORT: String(19464 + (process.pid % 1000)),
  });
  try {
    const servers = [
      { name: "off", server: off, ...(await fill(off)) },
      { name: "on", server: on, ...(await fill(on)) },
    ];
    const p50s: Record<string, Record<"search" | "fetch", number[]>> = { off: { search: [], fetch: [] }, on: { search: [], fetch: [] } };
    for (let round = 0; round < ROUNDS; round++) {
      for (const endpoint of ["search", "fetch"] as const) {
        for (const { name, server, auth, ids } of round % 2 === 0 ? servers : [...servers].reverse()) {
          let n = 0;
          const path =
            endpoint === "search"
              ? () => `/api/v1/artifacts?query=${encodeURIComponent(QUERIES[n++ % QUERIES.length]!)}`
              : () => `/api/v1/artifacts/${ids[n++ % ids.length]}`;
          p50s[name]![endpoint].push((await load(path, server.base, auth, 1, ROUND_MS)).p50);
        }
      }
    }
    console.log(`Telemetry off vs on, embedded database, ${ARTIFACTS} artifacts, one connection, median of ${ROUNDS} rounds' p50 (${ROUND_MS / 1000} s each):`);
    console.log("| request | off | on (OTLP + Prometheus) | difference |\n|---|---|---|---|");
    for (const endpoint of ["search", "fetch"] as const) {
      const a = median(p50s.off![endpoint]);
      const b = median(p50s.on![endpoint]);
      console.log(`| ${endpoint} p50 | ${a.toFixed(2)} ms | ${b.toFixed(2)} ms | ${(b - a >= 0 ? "+" : "") + (b - a).toFixed(2)} ms (${(((b - a) / a) * 100).toFixed(0)}%) |`);
    }
    console.log(`(${sink.received()} OTLP requests reached the sink.)`);
  } finally {
    await Promise.all([off.stop(), on.stop()]);
    await sink.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
