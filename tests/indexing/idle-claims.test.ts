import { createEmbeddingQueues } from "../../src/repositories/embedding-queue.repository";
import { createWorkspaceWithKey, importContent } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

// The indexer's looks for pending rows go through indexes that hold only pending rows (migration
// `pending_embeddings`): with every row embedded, an idle look reads none of the tables' rows.

const EMBEDDED_TABLES = ["artifact_embeddings", "memories", "query_patterns", "error_learnings"];
const ARTIFACTS = 150;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  const ws = await createWorkspaceWithKey(t.services);
  const artifacts = Array.from({ length: ARTIFACTS }, (_, i) => ({
    summary: `Refunds in region ${i} rose after the pricing change of week ${i % 52}`,
    why: `Region ${i} moved to the new price list`,
    confidence: 0.5,
    confidenceExplanation: "from the finance export",
  }));
  const memories = Array.from({ length: ARTIFACTS }, (_, i) => ({ type: "rule" as const, statement: `Report region ${i} refunds net of tax` }));
  await importContent(t.services, ws.workspaceId, { artifacts, memories });
  await t.services.indexer.runOnce();
  await t.database.prisma.$executeRawUnsafe(`ANALYZE ${EMBEDDED_TABLES.join(", ")}`);
}, 300_000);
afterAll(() => t.close());

interface TableReads {
  table: string;
  sequentialScans: number;
  sequentialRows: number;
  indexScans: number;
}

describe("an idle indexer", () => {
  // On Citus the statements run on the workers' shards, whose counters this transaction does not see.
  (process.env.WSI_TEST_CITUS ? it.skip : it)("finds that nothing is pending without reading the embedded tables", async () => {
    const [{ embedded }] = await t.database.prisma.$queryRaw<[{ embedded: number }]>`
      SELECT count(*)::int AS embedded FROM artifact_embeddings WHERE embedding IS NOT NULL`;
    expect(embedded).toBeGreaterThanOrEqual(ARTIFACTS * 2);
    // Every claim statement of five idle looks (each table, each tier), in one transaction, between
    // two readings of its backend's counters not yet flushed to the shared statistics
    // (pg_stat_xact_user_tables): their difference is what those statements read, nothing else.
    const reads = await t.database.prisma.$transaction(async (tx) => {
      const counters = () =>
        tx.$queryRawUnsafe<TableReads[]>(
          `SELECT relname AS "table", seq_scan::int AS "sequentialScans", seq_tup_read::int AS "sequentialRows", coalesce(idx_scan, 0)::int AS "indexScans"
           FROM pg_stat_xact_user_tables WHERE relname = ANY($1::text[]) ORDER BY relname`,
          EMBEDDED_TABLES,
        );
      const before = await counters();
      for (let look = 0; look < 5; look++) {
        for (const queue of createEmbeddingQueues(tx)) {
          for (let tier = 0; tier < queue.tiers; tier++) {
            const claimed = await queue.claim({ model: t.services.embeddings.model, limit: 32, leaseSeconds: 60, maxAttempts: 3, tier });
            expect(claimed).toEqual([]);
          }
        }
      }
      return (await counters()).map((after, i) => ({
        table: after.table,
        sequentialScans: after.sequentialScans - before[i]!.sequentialScans,
        sequentialRows: after.sequentialRows - before[i]!.sequentialRows,
        indexScans: after.indexScans - before[i]!.indexScans,
      }));
    });
    expect(reads.map((row) => row.table)).toEqual([...EMBEDDED_TABLES].sort());
    // An empty table (no patterns or learnings here) may be read sequentially: it has no row to read.
    for (const row of reads) expect(row).toMatchObject({ sequentialRows: 0 });
    for (const table of ["artifact_embeddings", "memories"]) {
      const read = reads.find((row) => row.table === table)!;
      expect(read.sequentialScans).toBe(0);
      expect(read.indexScans).toBeGreaterThan(0);
    }
  });

  it("still finds rows written since, and rows of another model", async () => {
    const [row] = await t.database.prisma.$queryRaw<[{ id: string }]>`SELECT id FROM memories ORDER BY id LIMIT 1`;
    await t.database.prisma.$executeRaw`UPDATE memories SET embedding_model = 'another/model/512' WHERE id = ${row.id}`;
    const ws = await createWorkspaceWithKey(t.services);
    await importContent(t.services, ws.workspaceId, { memories: [{ type: "rule", statement: "Count trials as customers only once paid" }] });
    expect(await t.services.indexer.runOnce()).toBe(2);
    const [{ pending }] = await t.database.prisma.$queryRaw<[{ pending: number }]>`
      SELECT count(*)::int AS pending FROM memories WHERE embedding_model IS DISTINCT FROM ${t.services.embeddings.model}`;
    expect(pending).toBe(0);
  });
});
