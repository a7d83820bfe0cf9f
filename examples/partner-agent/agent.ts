import { randomUUID } from "node:crypto";
import { createWorkspaceIntelligenceClient, type Schemas, type WorkspaceIntelligenceClient } from "../../clients/typescript";
import { chooseSource } from "./choose-source";
import { retryAfterMiddleware } from "./retry-after";

export interface PartnerAgentOptions {
  baseUrl: string;
  apiKey: string;
  /** The question the agent works on. */
  question: string;
  /** The data source to ask for proven SQL; when unset, the one that fits the question (chooseSource). */
  dataSource?: string;
  /** Pause between two looks at the feedback. */
  pollIntervalMs?: number;
  /** Give up waiting for a reviewer after this long (the draft stays in the queue). */
  timeoutMs?: number;
  /**
   * Sent with the push, so a retried request (after a 429 or a dropped connection) cannot file a second
   * draft. Give your own job id to make a crashed-and-restarted job safe too; a fresh one by default.
   */
  idempotencyKey?: string;
  /** Page size when reading feedback; the agent follows `nextCursor` through every page. */
  feedbackPageSize?: number;
  log?: (line: string) => void;
}

export interface PartnerAgentOutcome {
  artifactId: string;
  idempotencyKey: string;
  /** True when the push repeated an earlier one with the same Idempotency-Key. */
  replayed: boolean;
  status: "validated" | "disputed" | "draft";
  validatedBy?: string;
  disputeReason?: string;
}

/** Throws with the API's own `{error, code}` when a call did not succeed. */
function ok<T>(result: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (result.data === undefined) {
    const body = result.error as { error?: string; code?: string } | undefined;
    throw new Error(`${what} failed: ${result.response.status} ${body?.code ?? ""} ${body?.error ?? ""}`.trim());
  }
  return result.data;
}

/**
 * The three steps of a partner agent: read before deciding (briefing, memories, query
 * intelligence), push a draft, then learn the human verdict from the feedback.
 */
export async function runPartnerAgent(options: PartnerAgentOptions): Promise<PartnerAgentOutcome> {
  const log = options.log ?? (() => {});
  const api = createWorkspaceIntelligenceClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    middleware: [retryAfterMiddleware({ onRetry: ({ url, waitMs }) => log(`429 on ${url}: retrying in ${waitMs} ms`) })],
  });

  // 1. Read before deciding.
  const briefing = ok(await api.GET("/api/v1/briefing"), "GET /api/v1/briefing");
  log(`briefing: ${briefing.workspace.name}, ${briefing.directives.length} directives, ${briefing.memories.length} rules and definitions`);
  const { hits } = ok(await api.GET("/api/v1/memories", { params: { query: { query: options.question } } }), "GET /api/v1/memories");
  log(`memories: ${hits.length} recalled`);
  const { items: sources } = ok(await api.GET("/api/v1/data-sources"), "GET /api/v1/data-sources");
  const { name: source, because, intelligence } = await chooseSource(api, ok, options.question, sources, options.dataSource);
  log(`data source: ${source ?? "none"} (${because})`);
  log(`query intelligence of ${source ?? "no source"}: ${intelligence.patterns.length} patterns, ${intelligence.errorLearnings.length} learnings`);

  // 2. Push a draft, safe to retry: the same key and body replay the first answer.
  const draft = composeDraft(options.question, source, briefing, hits, intelligence);
  const idempotencyKey = options.idempotencyKey ?? `partner-agent-${randomUUID()}`;
  const pushed = await api.POST("/api/v1/artifacts", { params: { header: { "idempotency-key": idempotencyKey } }, body: draft });
  const { artifactId } = ok(pushed, "POST /api/v1/artifacts");
  const replayed = pushed.response.headers.get("Idempotent-Replayed") === "true";
  log(`pushed draft ${artifactId}${replayed ? " (replayed)" : ""}; waiting for a reviewer`);

  // 3. Learn the outcome.
  const outcome = await waitForVerdict(api, artifactId, options, log);
  return { artifactId, idempotencyKey, replayed, ...outcome };
}

function composeDraft(
  question: string,
  source: string | undefined,
  briefing: Schemas["BriefingResponse"],
  hits: Schemas["MemoryHit"][],
  intelligence: Schemas["QueryIntelligenceResponse"],
): Schemas["CreateArtifactRequest"] {
  const best = intelligence.patterns[0];
  const lines = [
    `## ${question}`,
    briefing.workspace.context ? `Context: ${briefing.workspace.context}` : "",
    ...briefing.directives.map((directive) => `- Directive honoured: ${directive.name}`),
    ...hits.slice(0, 3).map((hit) => `- ${hit.type}: ${hit.statement}`),
    best ? `\nProven SQL (${best.successCount} successful runs):\n\n\`\`\`sql\n${best.sql}\n\`\`\`` : "",
    ...intelligence.errorLearnings.slice(0, 3).map((learning) => `- Avoid: ${learning.learning}`),
  ];
  return {
    summary: `Proposed approach: ${question}`,
    why: "Grounded in the workspace's definitions and proven queries, so a reviewer can check it quickly.",
    confidence: best ? 0.7 : 0.4,
    confidenceExplanation: best ? `Reuses a query pattern that succeeded ${best.successCount} times.` : "No proven query pattern matched.",
    keyFindings: hits.slice(0, 3).map((hit) => hit.statement),
    dataSources: source ? [{ type: "database", name: source }] : [],
    content: lines.filter(Boolean).join("\n"),
  };
}

async function waitForVerdict(
  api: WorkspaceIntelligenceClient,
  artifactId: string,
  options: PartnerAgentOptions,
  log: (line: string) => void,
): Promise<Omit<PartnerAgentOutcome, "artifactId" | "idempotencyKey" | "replayed">> {
  const deadline = Date.now() + (options.timeoutMs ?? 10 * 60_000);
  for (;;) {
    const item = await findFeedback(api, artifactId, options.feedbackPageSize ?? 20);
    if (item && item.status !== "draft") {
      log(`${artifactId} ${item.status}${item.disputeReason ? `: ${item.disputeReason}` : ""}`);
      return { status: item.status, validatedBy: item.validatedBy, disputeReason: item.disputeReason };
    }
    if (Date.now() >= deadline) return { status: "draft" };
    await new Promise((resolve) => setTimeout(resolve, options.pollIntervalMs ?? 30_000));
  }
}

/** The feedback item of one artifact, read page by page: fewer items than the limit is not the end, a null cursor is. */
async function findFeedback(api: WorkspaceIntelligenceClient, artifactId: string, limit: number) {
  let cursor: string | undefined;
  do {
    const page = ok(await api.GET("/api/v1/feedback", { params: { query: { limit, cursor } } }), "GET /api/v1/feedback");
    const item = page.items.find((candidate) => candidate.artifactId === artifactId);
    if (item) return item;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return undefined;
}
