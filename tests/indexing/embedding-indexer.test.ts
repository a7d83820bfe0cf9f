import { Prisma } from "../../src/generated/prisma/client";
import type { EmbeddingsProvider } from "../../src/embeddings/embeddings-provider";
import { createLogger } from "../../src/lib/logger";
import { createEmbeddingQueues } from "../../src/repositories/embedding-queue.repository";
import { EmbeddingIndexer } from "../../src/indexing/embedding-indexer";
import { validatedArtifact } from "../support/artifacts";
import { createWorkspaceWithKey, importContent } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
const logger = createLogger("silent");
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The real local model behind a wrapper that counts the texts of each index batch and the batches in flight. */
function counting(real: EmbeddingsProvider, onBatch: (texts: string[]) => void = () => {}, indexLanes = real.indexLanes) {
  const counted = { texts: 0, inFlight: 0, mostInFlight: 0 };
  const provider: EmbeddingsProvider = {
    model: real.model,
    maxInputChars: real.maxInputChars,
    indexLanes,
    embed: async (texts) => {
      counted.texts += texts.length;
      counted.mostInFlight = Math.max(counted.mostInFlight, ++counted.inFlight);
      onBatch(texts);
      try {
        return await real.embed(texts);
      } finally {
        counted.inFlight -= 1;
      }
    },
    embedQuery: (text) => real.embedQuery(text),
    close: async () => {},
  };
  return { provider, counted };
}

async function importArtifacts(workspaceId: string, count: number, summary = (i: number) => `Refund rate rose in region ${i}`) {
  await importContent(t.services, workspaceId, {
    artifacts: Array.from({ length: count }, (_, i) => ({ summary: summary(i), why: `Reason ${i}`, confidence: 0.5, confidenceExplanation: "c" })),
  });
}

const pendingArtifactVectors = async (workspaceId: string) =>
  (await t.services.indexer.state(workspaceId)).tables.artifacts.pending;

describe("the embedding indexer", () => {
  it("makes every headline before any body, and counts an artifact findable by meaning once its headline has a vector", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    await importArtifacts(ws.workspaceId, 3);
    const artifacts = async () => (await t.services.indexer.state(ws.workspaceId)).tables.artifacts;
    expect(await artifacts()).toMatchObject({ pending: 6, embedded: 0, unfindable: 3 });
    // The second batch (the bodies) waits until the state has been read.
    let bodiesReached!: () => void;
    const bodies = new Promise<void>((resolve) => (bodiesReached = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let batches = 0;
    const real = t.services.embeddings;
    const provider: EmbeddingsProvider = {
      model: real.model,
      maxInputChars: real.maxInputChars,
      indexLanes: 1,
      embed: async (texts) => {
        if (++batches === 2) {
          bodiesReached();
          await released;
        }
        return real.embed(texts);
      },
      embedQuery: (text) => real.embedQuery(text),
      close: async () => {},
    };
    const run = new EmbeddingIndexer(t.database.prisma, provider, logger).runOnce(ws.workspaceId);
    await bodies;
    expect(await artifacts()).toMatchObject({ pending: 3, embedded: 3, unfindable: 0 });
    release();
    await run;
    expect(await artifacts()).toMatchObject({ pending: 0, embedded: 6, unfindable: 0 });
  });

  it("ages the backlog from when rows joined it, not from the past times an import gives them", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    const lastYear = Date.now() - 365 * 24 * 3600 * 1000;
    await importContent(t.services, ws.workspaceId, {
      memories: [{ type: "finding", statement: "Churn doubled in EMEA", createdAt: lastYear }],
      artifacts: [{ summary: "Refunds rose in Japan", why: "w", confidence: 0.5, confidenceExplanation: "c", createdAt: lastYear }],
    });
    const backlog = await t.services.indexer.backlog();
    const age = (table: string) => backlog.find((figure) => figure.table === table && figure.tier === 0)!;
    for (const table of ["artifacts", "memories"]) {
      expect(age(table).pending).toBeGreaterThan(0);
      expect(age(table).oldestPendingSeconds).toBeLessThan(3600);
    }
  });

  it("embeds each row exactly once when two indexers share the database", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    await importArtifacts(ws.workspaceId, 12);
    const a = counting(t.services.embeddings);
    const b = counting(t.services.embeddings);
    const options = { batchRows: 4 };
    const [fromA, fromB] = await Promise.all([
      new EmbeddingIndexer(t.database.prisma, a.provider, logger, options).runOnce(ws.workspaceId),
      new EmbeddingIndexer(t.database.prisma, b.provider, logger, options).runOnce(ws.workspaceId),
    ]);
    // 12 artifacts: two facet vectors and one memory each.
    expect(a.counted.texts + b.counted.texts).toBe(36);
    expect(fromA + fromB).toBe(36);
    expect(a.counted.texts).toBeGreaterThan(0);
    expect(b.counted.texts).toBeGreaterThan(0);
    const state = await t.services.indexer.state(ws.workspaceId);
    expect(state.tables.artifacts).toMatchObject({ pending: 0, embedded: 24 });
    expect(state.tables.memories).toMatchObject({ pending: 0, embedded: 12 });
  });

  it("makes every artifact findable by meaning before making any artifact's body vector", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    await importArtifacts(ws.workspaceId, 12);
    // Body texts carry the artifact's `why` ("Reason n"); headline and memory texts do not.
    const batches: boolean[] = [];
    const { provider } = counting(t.services.embeddings, (texts) => batches.push(texts.some((text) => text.includes("Reason"))), 1);
    await new EmbeddingIndexer(t.database.prisma, provider, logger, { batchRows: 4 }).runOnce(ws.workspaceId);
    // The 12 headlines first (three batches); then, in the second tier, the bodies and the
    // artifacts' memory-bank entries (which state the summaries the headlines hold), taking turns.
    expect(batches).toHaveLength(9);
    expect(batches.slice(0, 3)).toEqual([false, false, false]);
    expect(batches.filter((body) => body)).toHaveLength(3);
  });

  it("keeps as many batches in flight as the provider has index lanes", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    await importArtifacts(ws.workspaceId, 16);
    const { provider, counted } = counting(t.services.embeddings, () => {}, 2);
    await new EmbeddingIndexer(t.database.prisma, provider, logger, { batchRows: 2 }).runOnce(ws.workspaceId);
    expect(counted.mostInFlight).toBe(2);
    expect(counted.texts).toBe(48);
    expect(await pendingArtifactVectors(ws.workspaceId)).toBe(0);
  });

  it("skips a row whose text is empty instead of leaving it pending", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    await validatedArtifact(t, ws.auth, { summary: "   " });
    await t.services.indexer.runOnce(ws.workspaceId);
    const { artifacts } = (await t.services.indexer.state(ws.workspaceId)).tables;
    // The headline facet (summary and key findings) is blank; the body facet has the `why`.
    expect(artifacts).toMatchObject({ pending: 0, failed: 0, embedded: 1, skipped: 1 });
  });

  it("gives a crashed indexer's claimed rows back once its lease runs out", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    await importArtifacts(ws.workspaceId, 2);
    const artifacts = createEmbeddingQueues(t.database.prisma).find((queue) => queue.name === "artifacts")!;
    // Claimed by an indexer that then died: nobody settles these rows. The lease is long enough
    // for the next pass to come before it ends, even on a loaded machine.
    const leaseSeconds = 3;
    const claimedAt = Date.now();
    for (const tier of [0, 1]) {
      const claim = artifacts.claim({ model: t.services.embeddings.model, limit: 10, leaseSeconds, maxAttempts: 3, workspaceId: ws.workspaceId, tier });
      expect(await claim).toHaveLength(2);
    }

    await t.services.indexer.runOnce(ws.workspaceId);
    expect(await pendingArtifactVectors(ws.workspaceId)).toBe(4);
    await new Promise((resolve) => setTimeout(resolve, claimedAt + leaseSeconds * 1_000 + 100 - Date.now()));
    await t.services.indexer.runOnce(ws.workspaceId);
    expect(await pendingArtifactVectors(ws.workspaceId)).toBe(0);
  });

  it("abandons the batch in flight on stop, leaving its rows pending and unclaimed", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    await importArtifacts(ws.workspaceId, 40, (i) => `Long report ${i}: ${"margins shrank in every region ".repeat(30)}`);
    let batchStarted!: () => void;
    const started = new Promise<void>((resolve) => (batchStarted = resolve));
    const { provider } = counting(t.services.embeddings, () => batchStarted());
    const indexer = new EmbeddingIndexer(t.database.prisma, provider, logger);
    indexer.start();
    await started;
    const stopping = Date.now();
    await indexer.stop();
    expect(Date.now() - stopping).toBeLessThan(1_000);
    const held = await t.database.prisma.$queryRaw<[{ count: number }]>(
      Prisma.sql`SELECT count(*)::int AS count FROM artifact_embeddings WHERE workspace_id = ${ws.workspaceId} AND claimed_until IS NOT NULL`,
    );
    expect(held[0].count).toBe(0);
    expect(await pendingArtifactVectors(ws.workspaceId)).toBeGreaterThan(0);
  });
});

describe("the query lane of the local model", () => {
  it("answers a query embedding ahead of an index batch sent before it", async () => {
    const embeddings = t.services.embeddings;
    await Promise.all([embeddings.embed(["warm"]), embeddings.embedQuery("warm")]);
    const batch = embeddings.embed(Array.from({ length: 8 }, (_, i) => `Index text ${i}: ${"revenue by region and segment ".repeat(10)}`));
    const first = await Promise.race([batch.then(() => "index batch"), embeddings.embedQuery("churn in EMEA").then(() => "query")]);
    expect(first).toBe("query");
    await batch;
  });
});
