import type { Client } from "@modelcontextprotocol/client";
import { INPUT_LIMITS } from "../../src/contracts/text-limits";
import { DEFAULT_RATE_LIMITS } from "../../src/http/rate-limit/rate-limiters";
import { distinctWords } from "../support/distinct-words";
import { createWorkspaceWithKey, importContent, type WorkspaceWithKey } from "../support/factories";
import { callTool, connectMcpClient, listen, type ListeningApp } from "../support/mcp-client";
import { createTestApp, type TestApp } from "../support/test-app";

// One workspace sends the costliest searches the input limits allow while another reads its
// briefing. On the embedded database every statement of every workspace runs on one thread, so
// what one search costs, every other request waits for; the limits and the search's bound on the
// words it reads (src/search/query-text.ts) keep that wait to a few statements' time.
// docs/performance.md, "Other workspaces during the costliest search", has the figures.

const VOCABULARY = distinctWords(200).split(" ");
/** The longest query the limits allow, of as many distinct words as fit. */
const COSTLIEST_QUERY = VOCABULARY.join(" ").slice(0, INPUT_LIMITS.searchText).trimEnd();
/** The searching workspace's documents are written with the query's first 40 words: each word the search reads is in many of them. */
const DOCUMENT_WORDS = 40;
const sentence = (seed: number, words: number) => Array.from({ length: words }, (_, i) => VOCABULARY[(seed * 7 + i * 13) % DOCUMENT_WORDS]).join(" ");

/**
 * How much slower the other workspace's reads may be, at the median, while these calls run: on the
 * embedded database each of its statements can queue behind one of the search's, and on a shared
 * 2-core machine that wait varies a great deal, so the factors are generous.
 */
const ALLOWED_SLOWDOWN = 10;
/**
 * The same for the reads during any one kind of call. A call that held the database for its
 * whole time (a 950 KB query once held it for 7 to 13 s) makes this median its own time: hundreds
 * of times a read alone.
 */
const ALLOWED_SLOWDOWN_PER_CALL = 25;
/** Each call is sent this many times, with reads of the other workspace alone just before each. */
const ROUNDS = 5;
const READS_ALONE_PER_CALL = 3;

let t: TestApp;
let server: ListeningApp;
let searcher: WorkspaceWithKey;
let reader: WorkspaceWithKey;
let mcp: Client;

beforeAll(async () => {
  // The reading workspace reads as fast as the database answers, past its key's budget of a minute.
  t = await createTestApp({ rateLimits: { ...DEFAULT_RATE_LIMITS, perKey: 1_000_000 } });
  server = await listen(t.app);
  searcher = await createWorkspaceWithKey(t.services);
  reader = await createWorkspaceWithKey(t.services);
  await importContent(t.services, searcher.workspaceId, {
    memories: Array.from({ length: 150 }, (_, i) => ({ type: "rule" as const, statement: sentence(i, 12) })),
    artifacts: Array.from({ length: 30 }, (_, i) => ({ summary: sentence(i, 8), why: sentence(i + 1, 20), confidence: 0.5, confidenceExplanation: "measured" })),
    dataSources: [
      {
        name: "warehouse",
        connectorType: "postgres",
        status: "connected",
        queryPatterns: Array.from({ length: 30 }, (_, i) => ({ question: sentence(i, 10), sql: `SELECT ${sentence(i, 4).replaceAll(" ", ", ")} FROM facts`, successCount: 1 })),
      },
    ],
  });
  await importContent(t.services, reader.workspaceId, {
    context: "Figures are in US dollars.",
    directives: [{ name: "No PII", content: "Never select email or phone columns." }],
    memories: Array.from({ length: 50 }, (_, i) => ({ type: "definition" as const, statement: `Term ${i} means what the finance team says it means.` })),
  });
  await t.services.indexer.runOnce();
  mcp = await connectMcpClient(server.baseUrl, searcher.key);
});

afterAll(async () => {
  await mcp?.close();
  await server?.close();
  await t?.close();
});

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timed<T>(call: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const started = performance.now();
  const result = await call();
  return { ms: performance.now() - started, result };
}

async function get(path: string, who: WorkspaceWithKey): Promise<number> {
  const res = await fetch(`${server.baseUrl}${path}`, { headers: who.auth });
  await res.arrayBuffer();
  return res.status;
}

async function readBriefing(): Promise<number> {
  const { ms, result } = await timed(() => get("/api/v1/briefing", reader));
  expect(result).toBe(200);
  return ms;
}

/** The other workspace's briefing, read again and again until `done` settles; at least once. */
async function readBriefingsUntil(done: Promise<unknown>): Promise<number[]> {
  let settled = false;
  void done.finally(() => (settled = true)).catch(() => undefined);
  const times: number[] = [];
  do times.push(await readBriefing());
  while (!settled);
  return times;
}

const search = (path: string, params: Record<string, string>) => async () => (await get(`${path}?${new URLSearchParams(params)}`, searcher)) === 200;

/** The searching workspace's costliest calls on both adapters: each answers, except the oversized one, which is refused. */
const COSTLIEST_CALLS: Array<{ name: string; call: () => Promise<boolean> }> = [
  { name: "GET /api/v1/artifacts", call: search("/api/v1/artifacts", { query: COSTLIEST_QUERY, limit: "20" }) },
  { name: "GET /api/v1/memories", call: search("/api/v1/memories", { query: COSTLIEST_QUERY }) },
  { name: "GET /api/v1/data-sources/{name}/query-intelligence", call: search("/api/v1/data-sources/warehouse/query-intelligence", { question: COSTLIEST_QUERY }) },
  { name: "MCP search", call: async () => !(await callTool(mcp, "search", { query: COSTLIEST_QUERY, limit: 20 })).isError },
  { name: "MCP recall_memories", call: async () => !(await callTool(mcp, "recall_memories", { query: COSTLIEST_QUERY })).isError },
  { name: "MCP recall_memories of 950 KB (refused)", call: async () => Boolean((await callTool(mcp, "recall_memories", { query: "enterprise churn revenue ".repeat(38_000) })).isError) },
];

describe("another workspace while one sends the costliest calls the limits allow", () => {
  it("reads its briefing within a few times its median alone", async () => {
    for (let i = 0; i < 5; i++) await readBriefing();
    for (const { call } of COSTLIEST_CALLS) await call();

    const alone: number[] = [];
    const during = new Map<string, { reads: number[]; calls: number[] }>(COSTLIEST_CALLS.map(({ name }) => [name, { reads: [], calls: [] }]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const { name, call } of COSTLIEST_CALLS) {
        // Read alone right before each call, so that both figures come from the same moments of a machine whose load varies.
        for (let i = 0; i < READS_ALONE_PER_CALL; i++) alone.push(await readBriefing());
        const running = timed(call);
        const reads = await readBriefingsUntil(running);
        const { ms, result } = await running;
        expect({ name, answeredAsItShould: result }).toEqual({ name, answeredAsItShould: true });
        during.get(name)!.reads.push(...reads);
        during.get(name)!.calls.push(ms);
      }
    }

    const aloneMs = median(alone);
    const duringMs = median([...during.values()].flatMap(({ reads }) => reads));
    const byCall = [...during].map(([name, { reads, calls }]) => ({ name, callMedianMs: Math.round(median(calls)), briefingMedianMs: Math.round(median(reads)), briefings: reads.length }));
    const figures = { briefingAloneMedianMs: Math.round(aloneMs), briefingDuringMedianMs: Math.round(duringMs), byCall };
    if (process.env.WSI_PRINT_FIGURES) process.stdout.write(`${JSON.stringify(figures)}\n`);
    expect({ ...figures, withinAllowedSlowdown: duringMs <= ALLOWED_SLOWDOWN * aloneMs }).toMatchObject({ withinAllowedSlowdown: true });
    for (const [name, { reads }] of during) {
      const readsMs = median(reads);
      expect({ name, readsMs, aloneMs, withinAllowedSlowdown: readsMs <= ALLOWED_SLOWDOWN_PER_CALL * aloneMs }).toMatchObject({ withinAllowedSlowdown: true });
    }
  });
});
