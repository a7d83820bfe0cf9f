import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createWorkspaceIntelligenceClient } from "../../clients/typescript";
import { retryAfterMiddleware, retryAfterMs } from "../../examples/partner-agent/retry-after";

interface Seen {
  method: string;
  body: string;
  idempotencyKey?: string;
}

/** A real HTTP server on loopback that answers 429 with the given Retry-After to the first `limited` requests. */
async function rateLimitedServer(retryAfter: string | null, limited = 1) {
  const seen: Seen[] = [];
  const readBody = async (req: IncomingMessage) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    return body;
  };
  const server: Server = createServer(async (req, res) => {
    seen.push({ method: req.method!, body: await readBody(req), idempotencyKey: req.headers["idempotency-key"] as string | undefined });
    if (seen.length <= limited) {
      res.writeHead(429, { "Content-Type": "application/json", ...(retryAfter === null ? {} : { "Retry-After": retryAfter }) });
      res.end(JSON.stringify({ error: "Rate limit exceeded", code: "rate_limited" }));
      return;
    }
    res.writeHead(201, { "Content-Type": "application/json" }).end(JSON.stringify({ artifactId: "art_1", status: "draft" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { baseUrl, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const push = (baseUrl: string, options: Parameters<typeof retryAfterMiddleware>[0] = {}) =>
  createWorkspaceIntelligenceClient({ baseUrl, apiKey: "wsi_test", middleware: [retryAfterMiddleware(options)] }).POST("/api/v1/artifacts", {
    params: { header: { "idempotency-key": "churn-q3" } },
    body: { summary: "s", why: "w", confidence: 0.5, confidenceExplanation: "e" },
  });

describe("the example agent's Retry-After middleware", () => {
  it("waits the Retry-After seconds after a 429, then sends the same request again", async () => {
    const server = await rateLimitedServer("1");
    try {
      const started = Date.now();
      const result = await push(server.baseUrl);
      expect(result.response.status).toBe(201);
      expect(result.data).toEqual({ artifactId: "art_1", status: "draft" });
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
      expect(server.seen).toHaveLength(2);
      expect(server.seen[1]).toEqual(server.seen[0]);
      expect(server.seen[1]!.idempotencyKey).toBe("churn-q3");
      expect(JSON.parse(server.seen[1]!.body)).toMatchObject({ summary: "s" });
    } finally {
      await server.close();
    }
  });

  it("hands the 429 to the caller when Retry-After asks for longer than it will wait", async () => {
    const server = await rateLimitedServer("3600");
    try {
      const result = await push(server.baseUrl, { maxWaitMs: 5000 });
      expect(result.response.status).toBe(429);
      expect(result.error).toEqual({ error: "Rate limit exceeded", code: "rate_limited" });
      expect(server.seen).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it("gives up after maxRetries and hands over the last 429", async () => {
    const server = await rateLimitedServer("0", 10);
    try {
      const result = await push(server.baseUrl, { maxRetries: 2 });
      expect(result.response.status).toBe(429);
      expect(server.seen).toHaveLength(3);
    } finally {
      await server.close();
    }
  });

  it("backs off exponentially when a 429 carries no Retry-After", async () => {
    const server = await rateLimitedServer(null, 2);
    const waits: number[] = [];
    try {
      const result = await push(server.baseUrl, { sleep: async (ms) => void waits.push(ms) });
      expect(result.response.status).toBe(201);
      expect(waits).toEqual([1000, 2000]);
    } finally {
      await server.close();
    }
  });
});

describe("retryAfterMs", () => {
  it("reads delay-seconds and HTTP-dates, and nothing else", () => {
    const now = Date.parse("2026-11-22T10:00:00Z");
    expect(retryAfterMs("7", now)).toBe(7000);
    expect(retryAfterMs("Sun, 22 Nov 2026 10:00:30 GMT", now)).toBe(30_000);
    expect(retryAfterMs("soon", now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
  });
});
