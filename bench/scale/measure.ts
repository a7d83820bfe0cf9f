import http from "node:http";
import type { AddressInfo } from "node:net";
import { buildApp } from "../../src/app";
import type { Database } from "../../src/db/database";
import type { EmbeddingsProvider } from "../../src/embeddings/embeddings-provider";
import { systemClock } from "../../src/lib/clock";
import { createLogger } from "../../src/lib/logger";
import { createServices, type Services } from "../../src/services";
import { BENCH_RATE_LIMITS } from "../bench-rate-limits";
import { get } from "../load";

// The real app on one database, and its latencies seen from a client on loopback.

export interface BenchApp {
  base: string;
  services: Services;
  /** The Authorization header of a full-access key of the workspace, made on first use. */
  authFor(workspaceId: string): Promise<Record<string, string>>;
  close(): Promise<void>;
}

/**
 * The app as the other benches run it, without its embedding indexer: every seeded vector is
 * made, and a running indexer would only add its polling to the figures.
 */
export async function startApp(database: Database, embeddings: EmbeddingsProvider): Promise<BenchApp> {
  // Silent unless asked (BENCH_LOG_LEVEL=error shows what a 5xx was).
  const logger = createLogger((process.env.BENCH_LOG_LEVEL as Parameters<typeof createLogger>[0] | undefined) ?? "silent");
  const services = createServices({ database, clock: systemClock, logger, embeddings });
  // The limiters still run on every request (their cost is part of the figures), with budgets no run reaches.
  const server = buildApp({ services, logger, rateLimits: BENCH_RATE_LIMITS }).listen(0, "127.0.0.1");
  await new Promise((resolve, reject) => server.once("listening", resolve).once("error", reject));
  const keys = new Map<string, string>();
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    services,
    async authFor(workspaceId) {
      if (!keys.has(workspaceId)) keys.set(workspaceId, (await services.apiKeys.create(workspaceId, { name: "scale-bench" })).key);
      return { authorization: `Bearer ${keys.get(workspaceId)}` };
    },
    async close() {
      await services.indexer.stop();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export interface Latencies {
  count: number;
  p50: number;
  p95: number;
}

export const percentile = (values: number[], share: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))] ?? NaN;
};

const summary = (latencies: number[]): Latencies => ({ count: latencies.length, p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95) });

/** `warmup` untimed requests then `count` timed ones, one at a time on one keep-alive connection; request i asks `pathOf(i)`. */
export async function sequential(base: string, headers: Record<string, string>, pathOf: (i: number) => string, warmup: number, count: number): Promise<Latencies> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const latencies: number[] = [];
    for (let i = 0; i < warmup + count; i++) {
      const sent = performance.now();
      await get(agent, new URL(pathOf(i), base), headers);
      if (i >= warmup) latencies.push(performance.now() - sent);
    }
    return summary(latencies);
  } finally {
    agent.destroy();
  }
}

/** `connections` clients on keep-alive connections, each sending its next request when its answer is read, for `durationMs`. */
export async function concurrent(
  base: string,
  headers: Record<string, string>,
  pathOf: (i: number) => string,
  connections: number,
  durationMs: number,
): Promise<Latencies & { perSecond: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  try {
    const latencies: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() - started < durationMs) {
          const sent = performance.now();
          await get(agent, new URL(pathOf(next++), base), headers);
          latencies.push(performance.now() - sent);
        }
      }),
    );
    return { ...summary(latencies), perSecond: (latencies.length / (performance.now() - started)) * 1000 };
  } finally {
    agent.destroy();
  }
}

/** `count` POSTs one at a time, each expected to answer `status`; their latencies, summed up and each. */
export async function posts(
  base: string,
  headers: Record<string, string>,
  path: string,
  bodyOf: (i: number) => unknown,
  count: number,
  status: number,
): Promise<Latencies & { all: number[] }> {
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const sent = performance.now();
    const res = await fetch(`${base}${path}`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(bodyOf(i)) });
    await res.arrayBuffer();
    if (res.status !== status) throw new Error(`POST ${path} answered ${res.status}`);
    latencies.push(performance.now() - sent);
  }
  return { ...summary(latencies), all: latencies };
}
