import type { EmbeddingsProvider } from "../../src/embeddings/embeddings-provider";
import { createLogger } from "../../src/lib/logger";
import { EmbeddingIndexer } from "../../src/indexing/embedding-indexer";
import { createWorkspaceWithKey, importContent } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";
import { waitFor } from "../support/wait-for";

const IDLE_POLL_MS = 60_000;

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(() => t.close());

/** The real local model, noting when the first index batch was sent. */
function noting(real: EmbeddingsProvider) {
  const seen = { firstBatchAt: 0 };
  const provider: EmbeddingsProvider = {
    model: real.model,
    maxInputChars: real.maxInputChars,
    indexLanes: 1,
    embed: (texts) => {
      seen.firstBatchAt ||= Date.now();
      return real.embed(texts);
    },
    embedQuery: (text) => real.embedQuery(text),
    close: async () => {},
  };
  return { provider, seen };
}

async function idleIndexer(provider: EmbeddingsProvider) {
  const indexer = new EmbeddingIndexer(t.database.prisma, provider, createLogger("silent"), { wakeDelayMs: 100, maxWakeDelayMs: 400, idlePollMs: IDLE_POLL_MS });
  indexer.start();
  // Its first pass finds nothing; it then waits for a wake.
  await waitFor(() => indexer.waiting, { what: "the indexer's first pass to end" });
  const ws = await createWorkspaceWithKey(t.services);
  await importContent(t.services, ws.workspaceId, { artifacts: [{ summary: "Refunds rose", why: "Pricing", confidence: 0.5, confidenceExplanation: "c" }] });
  return indexer;
}

describe("waking the indexer", () => {
  it("looks for pending rows once writes have paused for the wake delay", async () => {
    const { provider, seen } = noting(t.services.embeddings);
    const indexer = await idleIndexer(provider);
    const woken = Date.now();
    indexer.wake();
    await waitFor(() => seen.firstBatchAt > 0, { what: "the first index batch" });
    await indexer.stop();
    expect(seen.firstBatchAt - woken).toBeGreaterThanOrEqual(90);
    // Woken, not found by the idle poll a minute later (a loaded machine may add seconds).
    expect(seen.firstBatchAt - woken).toBeLessThan(IDLE_POLL_MS / 2);
  });

  it("puts index work off during a steady stream of writes for at most the longest wake delay", async () => {
    const { provider, seen } = noting(t.services.embeddings);
    const indexer = await idleIndexer(provider);
    const woken = Date.now();
    const stream = setInterval(() => indexer.wake(), 40);
    indexer.wake();
    try {
      // The stream goes on until the batch comes: were the delay unbounded, it never would.
      await waitFor(() => seen.firstBatchAt > 0, { what: "the first index batch while wakes keep coming" });
    } finally {
      clearInterval(stream);
      await indexer.stop();
    }
    expect(seen.firstBatchAt - woken).toBeGreaterThanOrEqual(380);
  });
});
