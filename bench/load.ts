import http from "node:http";

// A closed-loop load generator on node:http keep-alive agents: `connections` clients, each sending
// its next request as soon as the previous answer is read, for `durationMs`; and one such client
// for as long as a condition asks (`backToBack`).

export interface LoadResult {
  requests: number;
  perSecond: number;
  p50: number;
  max: number;
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

export function get(agent: http.Agent, url: URL, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers }, (res) => {
      res.resume();
      res.on("end", () => (res.statusCode === 200 ? resolve(res.statusCode) : reject(new Error(`${url.pathname} answered ${res.statusCode}`))));
    });
    req.on("error", reject);
  });
}

export async function load(paths: () => string, base: string, headers: Record<string, string>, connections: number, durationMs: number): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  const started = performance.now();
  const until = started + durationMs;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        const sent = performance.now();
        await get(agent, new URL(paths(), base), headers);
        latencies.push(performance.now() - sent);
      }
    }),
  );
  const elapsed = performance.now() - started;
  agent.destroy();
  return { requests: latencies.length, perSecond: (latencies.length / elapsed) * 1000, p50: median(latencies), max: Math.max(...latencies) };
}

/** One client, back to back, until `until()` holds and at least `minimum` requests (at most 5,001) are answered. */
export async function backToBack(base: string, headers: Record<string, string>, paths: () => string, until: () => boolean, minimum: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  while (latencies.length < minimum || !until()) {
    const sent = performance.now();
    await get(agent, new URL(paths(), base), headers);
    latencies.push(performance.now() - sent);
    if (latencies.length > 5000) break;
  }
  agent.destroy();
  return { p50: median(latencies), max: Math.max(...latencies), count: latencies.length };
}
