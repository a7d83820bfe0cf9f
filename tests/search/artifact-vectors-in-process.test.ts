import { exactDistanceOn } from "../../src/db/vector-distance";
import { createArtifactSearchRepository, nearestQuery } from "../../src/repositories/artifact-search.repository";
import { createArtifactVectorsInProcess } from "../../src/repositories/artifact-vectors-in-process";
import { createVectorIndexRepository } from "../../src/repositories/vector-index.repository";
import type { QueryVector } from "../../src/search/hybrid-query";
import { pushArtifact, validateArtifact, validatedArtifact } from "../support/artifacts";
import { createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { buildOwnIndexes } from "../support/own-indexes";
import { createTestApp, type TestApp } from "../support/test-app";
import { waitFor } from "../support/wait-for";

// The embedded engine only (jest.config.js): PostgreSQL compares half floats natively and holds nothing.

let t: TestApp;
let held: NonNullable<TestApp["services"]["artifactVectors"]>;
let shop: WorkspaceWithKey;
let other: WorkspaceWithKey;
let model: string;

const SUMMARIES = [
  "Refund rate rose for mobile customers after the app update",
  "Enterprise churn doubled in the third quarter",
  "Weekly active users fell on Android tablets",
  "Average order value grew with free shipping over 50 euros",
  "Support tickets about invoices spiked at month end",
  "Trial-to-paid conversion improved after onboarding emails",
  "Warehouse delays raised late deliveries in the north region",
  "Marketing spend on search ads returned less per euro in June",
];

const QUESTIONS = ["why are customers asking for refunds", "which accounts are churning", "delivery problems", "is advertising paying off", "tablet usage"];

const vectorOf = async (text: string): Promise<QueryVector> => ({ vector: (await t.services.embeddings.embed([text]))[0]!, model });

/** The nearest artifacts by the exact scan's statement, with their distances. */
async function byStatement(workspaceId: string, query: QueryVector) {
  return t.database.prisma.$queryRaw<Array<{ id: string; distance: number }>>(nearestQuery(workspaceId, query, { exactDistance: exactDistanceOn(t.database.kind) }));
}

/** Indexes what is pending: the indexer's writes of vectors announce the change as they commit. */
const index = () => t.services.indexer.runOnce();

beforeAll(async () => {
  t = await createTestApp();
  held = t.services.artifactVectors!;
  model = t.services.embeddings.model;
  shop = await createWorkspaceWithKey(t.services);
  other = await createWorkspaceWithKey(t.services);
  for (const summary of SUMMARIES) await validatedArtifact(t, shop.auth, { summary });
  await validatedArtifact(t, other.auth, { summary: "Refund rate rose for mobile customers" });
  await index();
});
afterAll(() => t.close());

describe("artifact vectors held in the process (embedded engine)", () => {
  it("finds the nearest artifacts the exact scan's statement finds, at the same distances", async () => {
    expect(await held.hold(shop.workspaceId, model)).toBe(true);
    for (const question of QUESTIONS) {
      const query = await vectorOf(question);
      const expected = await byStatement(shop.workspaceId, query);
      const found = (await held.nearest(shop.workspaceId, query, 50))!;
      expect(found.map((row) => row.id)).toEqual(expected.map((row) => row.id));
      found.forEach((row, i) => expect(Math.abs(row.distance - Number(expected[i]!.distance))).toBeLessThan(1e-5));
    }
  });

  it("finds exactly the exact scan's nearest among 12,000 vectors read in turns: ties, near ties, zero vectors and vectors its codes fit badly", async () => {
    const wide = await createWorkspaceWithKey(t.services);
    // 2,400 artifacts of five vectors each, the vectors random (setseed: the same every run), all
    // about equally far from any question: the bounds of the codes decide least here. Artifacts
    // 0-99 share one vector (ties broken by id), 100-199 that vector nudged in one number (near
    // ties), 200-209 have zero vectors, 210-219 one number a thousand times the others.
    await t.database.executor.query(`SELECT setseed(0.42)`);
    await t.database.executor.query(
      `WITH numbers AS (SELECT g FROM generate_series(0, 2399) g),
            inserted AS (
              INSERT INTO artifacts (id, workspace_id, status, trigger, summary, why, confidence, confidence_explanation, created_by, validated_at, validated_by, updated_at)
              SELECT 'art_wide_' || lpad(g::text, 4, '0'), $1, 'validated', 'chat', 'Wide ' || g, 'Generated', 0.5, 'synthetic', 'test', now(), 'test', now() FROM numbers
              RETURNING id),
            shared AS (SELECT array_agg(random() - 0.5) AS v FROM generate_series(1, 512))
       INSERT INTO artifact_embeddings (id, artifact_id, facet, part, workspace_id, searchable, model, embedding)
       SELECT 'art_wide_' || lpad(g::text, 4, '0') || ':body:' || p, 'art_wide_' || lpad(g::text, 4, '0'), 'body', p, $1, true, $2,
              (CASE WHEN g < 100 THEN (SELECT v FROM shared)
                    WHEN g < 200 THEN (SELECT v[1:511] || (v[512] + 0.001 * (g - 99)) FROM shared)
                    WHEN g < 210 THEN array_fill(0::float8, ARRAY[512])
                    WHEN g < 220 THEN (SELECT array_agg(CASE WHEN d = 1 THEN 1000 * (random() - 0.5) ELSE random() - 0.5 END) FROM generate_series(1, 512 + 0 * g) d)
                    ELSE (SELECT array_agg(random() - 0.5) FROM generate_series(1, 512 + 0 * g * p)) END)::vector::halfvec
       FROM numbers CROSS JOIN generate_series(1, 5) p`,
      [wide.workspaceId, model],
    );
    expect(await held.hold(wide.workspaceId, model)).toBe(true);
    const shared = (await t.database.executor.query<{ v: string }>(`SELECT embedding::vector::text AS v FROM artifact_embeddings WHERE workspace_id = $1 AND artifact_id = 'art_wide_0000' LIMIT 1`, [wide.workspaceId]))[0]!.v;
    const queries = [...(await Promise.all(QUESTIONS.map(vectorOf))), { vector: JSON.parse(shared) as number[], model }, { vector: (JSON.parse(shared) as number[]).map((x, d) => (d === 0 ? x + 0.2 : -x)), model }];
    for (const query of queries) {
      const expected = await byStatement(wide.workspaceId, query);
      const found = (await held.nearest(wide.workspaceId, query, 50))!;
      expect(found.map((row) => row.id)).toEqual(expected.map((row) => row.id));
      found.forEach((row, i) => expect(Math.abs(row.distance - Number(expected[i]!.distance))).toBeLessThan(1e-5));
    }
    // The query that is the shared vector: the hundred ties first, by id.
    expect((await held.nearest(wide.workspaceId, queries[QUESTIONS.length]!, 50))!.map((row) => row.id)).toEqual(Array.from({ length: 50 }, (_, n) => `art_wide_${String(n).padStart(4, "0")}`));
  });

  it("gives the distances of the artifacts asked about that are not among the nearest, after them", async () => {
    expect(await held.hold(shop.workspaceId, model)).toBe(true);
    const query = await vectorOf("delivery problems");
    const all = await byStatement(shop.workspaceId, query);
    const found = (await held.nearest(shop.workspaceId, query, 2, [all[5]!.id, all[0]!.id, "art_unknown", all[5]!.id]))!;
    expect(found.map((row) => row.id)).toEqual([all[0]!.id, all[1]!.id, all[5]!.id]);
    expect(Math.abs(found[2]!.distance - Number(all[5]!.distance))).toBeLessThan(1e-5);
  });

  it("gives a search the same candidates as the statement, each with its similarity", async () => {
    const indexes = createVectorIndexRepository(t.database.prisma, { engine: t.database.kind });
    const plain = createArtifactSearchRepository(t.database.prisma, indexes, { driver: t.database.executor });
    const withHeld = createArtifactSearchRepository(t.database.prisma, indexes, { driver: t.database.executor, inProcess: held });
    expect(await held.hold(shop.workspaceId, model)).toBe(true);
    for (const question of QUESTIONS) {
      const query = { text: question, vector: await vectorOf(question) };
      const expected = await plain.candidates(shop.workspaceId, query);
      const found = await withHeld.candidates(shop.workspaceId, query);
      expect(found.map((row) => row.id)).toEqual(expected.map((row) => row.id));
      found.forEach((row, i) => expect(Math.abs(row.similarity! - expected[i]!.similarity!)).toBeLessThan(1e-5));
    }
  });

  it("keeps a workspace's copy through writes to its vectors, reading again only the changed artifacts' rows before the next search answers", async () => {
    const statements: string[] = [];
    const engine = t.database.inProcess!;
    const counted = { listen: engine.listen, copyOut: (statement: string) => (statements.push(statement), engine.copyOut(statement)) };
    const patching = createArtifactVectorsInProcess(t.database.executor, counted);
    const query = await vectorOf("customers leaving for a competitor");
    expect(await patching.hold(shop.workspaceId, model)).toBe(true);
    const nearestIds = async () => (await patching.nearest(shop.workspaceId, query, 50))!.map((row) => row.id);
    const statementIds = async () => (await byStatement(shop.workspaceId, query)).map((row) => row.id);
    /** The artifacts whose rows were read since the last call (the indexer may write an artifact's vectors in more than one statement), or "a whole read". */
    const patchesSince = (() => {
      let seen = statements.length;
      return () => {
        const since = statements.slice(seen);
        seen = statements.length;
        return [...new Set(since.map((statement) => (statement.match(/artifact_id IN \(([^)]*)\)/)?.[1] ?? "a whole read").replaceAll("'", "")))];
      };
    })();

    // A push writes no vector rows: nothing searchable changed.
    const pushed = await pushArtifact(t, shop.auth, { summary: "Customers leave for a competitor after price rises" });
    expect(await nearestIds()).toEqual(await statementIds());
    expect(patchesSince()).toEqual([]);

    // Validated and embedded: the indexer's write is announced before it returns, and the next
    // search waits for the artifact's rows to be read.
    const leaving = await validatedArtifact(t, shop.auth, { summary: "Customers leaving for a cheaper competitor" });
    await index();
    expect(await nearestIds()).toContain(leaving);
    expect(await nearestIds()).toEqual(await statementIds());
    expect(patchesSince()).toEqual([leaving]);
    expect(patching.holds(shop.workspaceId)).toBe(true);

    // A draft is embedded after its validation: the validation writes pending rows (nothing
    // searchable yet), and the indexer's write of their vectors is read in.
    const draft = await pushArtifact(t, shop.auth, { summary: "Customers switching to a competitor's cheaper plan" });
    await index();
    await validateArtifact(t, draft);
    expect(await nearestIds()).not.toContain(draft);
    expect(patchesSince()).toEqual([]);
    await index();
    expect(await nearestIds()).toContain(draft);
    expect(patchesSince()).toEqual([draft]);

    // Deleted: the cascade's delete of its vectors is read in too, as no rows.
    const deleted = (await nearestIds())[0]!;
    await t.services.deletions.deleteArtifact(shop.workspaceId, deleted);
    expect(await nearestIds()).not.toContain(deleted);
    expect(await nearestIds()).not.toContain(pushed);
    expect(await nearestIds()).toEqual(await statementIds());
    expect(patchesSince()).toEqual([deleted]);

    // A row inserted with its vector, as the benches seed them.
    const [inserted] = await t.database.executor.query<{ artifact_id: string }>(
      `INSERT INTO artifact_embeddings (id, artifact_id, facet, part, workspace_id, searchable, model, embedding)
       SELECT e.id || ':copy', e.artifact_id, e.facet, 90, e.workspace_id, true, e.model, e.embedding
       FROM artifact_embeddings e WHERE e.workspace_id = $1 AND e.embedding IS NOT NULL LIMIT 1 RETURNING artifact_id`,
      [shop.workspaceId],
    );
    expect(await nearestIds()).toEqual(await statementIds());
    expect(patchesSince()).toEqual([inserted!.artifact_id]);
  });

  it("patches many artifacts in place and past the copy's room, exactly; a statement changing over 1,000 of a workspace's artifacts drops the copy", async () => {
    const many = await createWorkspaceWithKey(t.services);
    await t.database.executor.query(`SELECT setseed(0.17)`);
    const randomVectors = (workspace: string, from: number, to: number) =>
      t.database.executor.query(
        `WITH numbers AS (SELECT g FROM generate_series(${from}, ${to}) g),
              inserted AS (
                INSERT INTO artifacts (id, workspace_id, status, trigger, summary, why, confidence, confidence_explanation, created_by, validated_at, validated_by, updated_at)
                SELECT 'art_many_' || lpad(g::text, 4, '0'), $1, 'validated', 'chat', 'Many ' || g, 'Generated', 0.5, 'synthetic', 'test', now(), 'test', now() FROM numbers
                ON CONFLICT DO NOTHING RETURNING id)
         INSERT INTO artifact_embeddings (id, artifact_id, facet, part, workspace_id, searchable, model, embedding)
         SELECT 'art_many_' || lpad(g::text, 4, '0') || ':body:' || p, 'art_many_' || lpad(g::text, 4, '0'), 'body', p, $1, true, $2,
                (SELECT array_agg(random() - 0.5) FROM generate_series(1, 512 + 0 * g * p))::vector::halfvec
         FROM numbers CROSS JOIN generate_series(1, 4) p
         ON CONFLICT (workspace_id, id) DO UPDATE SET embedding = EXCLUDED.embedding`,
        [workspace, model],
      );
    await randomVectors(many.workspaceId, 0, 1199);
    expect(await held.hold(many.workspaceId, model)).toBe(true);
    const queries = await Promise.all(QUESTIONS.map(vectorOf));
    const same = async () => {
      for (const query of queries) {
        const expected = await byStatement(many.workspaceId, query);
        const found = (await held.nearest(many.workspaceId, query, 50))!;
        expect(found.map((row) => row.id)).toEqual(expected.map((row) => row.id));
        found.forEach((row, i) => expect(Math.abs(row.distance - Number(expected[i]!.distance))).toBeLessThan(1e-5));
      }
    };
    // 20 artifacts' vectors made anew: in the copy's room. 300 more, of 1,200 rows, and 300 new
    // ones: past it, into a new copy. Some artifacts deleted, and the search after each waits for them.
    await randomVectors(many.workspaceId, 100, 119);
    await same();
    await randomVectors(many.workspaceId, 500, 799);
    await randomVectors(many.workspaceId, 1200, 1499);
    await same();
    await t.database.executor.query(`DELETE FROM artifacts WHERE workspace_id = $1 AND id BETWEEN 'art_many_0000' AND 'art_many_0099'`, [many.workspaceId]);
    await same();
    expect(held.holds(many.workspaceId)).toBe(true);

    // 1,400 artifacts in one statement: announced as the whole workspace, whose copy is read again.
    await t.database.executor.query(`DELETE FROM artifact_embeddings WHERE workspace_id = $1`, [many.workspaceId]);
    expect(held.holds(many.workspaceId)).toBe(false);
    expect(await held.hold(many.workspaceId, model)).toBe(true);
    expect(await held.nearest(many.workspaceId, queries[0]!, 50)).toEqual([]);
  });

  it("reads a dropped copy again no sooner than ten times its last read took", async () => {
    let clock = 0;
    let reads = 0;
    const engine = t.database.inProcess!;
    // Each read of the engine takes 500 ms by this clock.
    const slow = { listen: engine.listen, copyOut: (statement: string) => (reads++, (clock += 500), engine.copyOut(statement)) };
    const paced = createArtifactVectorsInProcess(t.database.executor, slow, { reloadIntervalMs: 0, now: () => clock });
    expect(await paced.hold(shop.workspaceId, model)).toBe(true);
    expect(reads).toBe(1);
    const query = await vectorOf("refunds");
    // The whole workspace announced changed, as a statement changing most of it announces it.
    await t.database.executor.query(`SELECT pg_notify('wsi_artifact_vectors', $1)`, [shop.workspaceId]);
    expect(paced.holds(shop.workspaceId)).toBe(false);
    clock = 500 + 4_999;
    expect(await paced.nearest(shop.workspaceId, query, 50)).toBeUndefined();
    expect(reads).toBe(1);
    clock = 500 + 5_000;
    expect(await paced.nearest(shop.workspaceId, query, 50)).toBeUndefined();
    expect(reads).toBe(2);
    await waitFor(() => paced.holds(shop.workspaceId), { what: "the copy read again" });
  });

  it("keeps a workspace's copy when another workspace's vectors change", async () => {
    const query = await vectorOf("refunds");
    expect(await held.hold(shop.workspaceId, model)).toBe(true);
    await validatedArtifact(t, other.auth, { summary: "Refunds of annual plans" });
    await index();
    expect((await held.nearest(shop.workspaceId, query, 50))).toBeDefined();
    expect((await held.nearest(other.workspaceId, query, 50))).toBeUndefined();
  });

  it("answers no nearest artifacts for a workspace without vectors, as the statement does", async () => {
    const empty = await createWorkspaceWithKey(t.services);
    expect(await held.hold(empty.workspaceId, model)).toBe(true);
    const query = await vectorOf("refunds");
    expect((await held.nearest(empty.workspaceId, query, 50))).toEqual([]);
    expect(await byStatement(empty.workspaceId, query)).toEqual([]);
  });

  it("holds no more than its bounds: a workspace past the most for one is left to the statement, the least recently searched goes for room", async () => {
    const bounded = createArtifactVectorsInProcess(t.database.executor, t.database.inProcess!, { workspaceMaxVectors: 4, maxVectors: 100 });
    expect(await bounded.hold(shop.workspaceId, model)).toBe(false);
    const query = await vectorOf("refunds");
    expect((await bounded.nearest(shop.workspaceId, query, 50))).toBeUndefined();

    const many = (await t.database.executor.query<{ n: number }>(`SELECT count(*)::int AS n FROM artifact_embeddings WHERE workspace_id = $1 AND searchable AND embedding IS NOT NULL`, [shop.workspaceId]))[0]!.n;
    // Room for the larger workspace alone.
    const roomy = createArtifactVectorsInProcess(t.database.executor, t.database.inProcess!, { maxVectors: many });
    expect(await roomy.hold(other.workspaceId, model)).toBe(true);
    expect(await roomy.hold(shop.workspaceId, model)).toBe(true);
    // Both do not fit: the workspace searched least recently was let go.
    expect((await roomy.nearest(other.workspaceId, query, 50))).toBeUndefined();
    expect((await roomy.nearest(shop.workspaceId, query, 50))).toBeDefined();

    // Room for one workspace's copy, however few its vectors: the other was let go.
    const one = createArtifactVectorsInProcess(t.database.executor, t.database.inProcess!, { maxWorkspaces: 1 });
    expect(await one.hold(other.workspaceId, model)).toBe(true);
    expect(await one.hold(shop.workspaceId, model)).toBe(true);
    expect(one.holds(other.workspaceId)).toBe(false);
    expect((await one.nearest(shop.workspaceId, query, 50))).toBeDefined();
  });

  it("does not read a workspace found too large again when it changes, until its recheck is due", async () => {
    let reads = 0;
    const engine = t.database.inProcess!;
    const counted = { listen: engine.listen, copyOut: (statement: string) => (reads++, engine.copyOut(statement)) };
    let clock = 0;
    const bounded = createArtifactVectorsInProcess(t.database.executor, counted, { workspaceMaxVectors: 4, reloadIntervalMs: 0, tooLargeRecheckMs: 60_000, now: () => clock });
    await bounded.started;
    const query = await vectorOf("refunds");
    expect((await bounded.nearest(shop.workspaceId, query, 50))).toBeUndefined();
    await waitFor(() => reads > 0, { what: "the first read of the workspace's vectors" });
    await validatedArtifact(t, shop.auth, { summary: "Refunds of monthly plans" });
    await index();
    const after = reads;
    clock += 30_000;
    expect((await bounded.nearest(shop.workspaceId, query, 50))).toBeUndefined();
    expect(reads).toBe(after);
    clock += 30_000;
    expect((await bounded.nearest(shop.workspaceId, query, 50))).toBeUndefined();
    expect(reads).toBe(after + 1);
  });

  it("serves the service's searches once a first search has read the workspace's vectors", async () => {
    const search = async () => {
      const { hits, searchMode } = await t.services.artifacts.searchWorkspace(shop.workspaceId, "why are customers asking for refunds", 5);
      return { searchMode, hits: hits.map((hit) => ({ id: hit.id, score: hit.score.toFixed(4) })) };
    };
    await validatedArtifact(t, shop.auth, { summary: "Refund requests from annual plan customers" });
    await index();
    // The whole workspace announced changed, so that the service's search finds no copy.
    await t.database.executor.query(`SELECT pg_notify('wsi_artifact_vectors', $1)`, [shop.workspaceId]);
    expect(held.holds(shop.workspaceId)).toBe(false);
    const before = await search();
    expect(before.searchMode).toBe("hybrid");
    // A search without a copy starts reading one (not more often than every 2 s); the next answers from it.
    await waitFor(
      async () => {
        await search();
        return held.holds(shop.workspaceId);
      },
      { what: "the workspace's vectors read after a search found none", everyMs: 250 },
    );
    const after = await search();
    expect(after).toEqual(before);
  });

  it("answers from the held vectors before the workspace's own index, exactly", async () => {
    const built = await buildOwnIndexes(t, 0);
    expect(built).toContainEqual(expect.objectContaining({ workspaceId: shop.workspaceId, table: "artifact_embeddings" }));
    const indexes = () => createVectorIndexRepository(t.database.prisma, { engine: t.database.kind });
    const query = await vectorOf("why are customers asking for refunds");
    expect(await held.hold(shop.workspaceId, model)).toBe(true);
    const withHeld = await createArtifactSearchRepository(t.database.prisma, indexes(), { driver: t.database.executor, inProcess: held }).nearest(shop.workspaceId, query);
    const plain = await createArtifactSearchRepository(t.database.prisma, indexes(), { driver: t.database.executor }).nearest(shop.workspaceId, query);
    expect(plain.strategy).toBe("index");
    expect(withHeld).toEqual({ strategy: "exact", ids: (await byStatement(shop.workspaceId, query)).map((row) => row.id) });
  });
});
