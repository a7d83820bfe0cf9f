import request from "supertest";
import {
  CANDIDATES_PER_SIDE,
  createArtifactSearchRepository,
  filteredNearestQuery,
  scansOwnIndex,
} from "../../src/repositories/artifact-search.repository";
import { createVectorIndexRepository } from "../../src/repositories/vector-index.repository";
import { createVectorIndexMaintenance } from "../../src/indexing/vector-index-maintenance";
import { embedQuery } from "../../src/search/query-embedding";
import { rankFound } from "../../src/search/hybrid-candidates";
import type { ArtifactFilters } from "../../src/search/artifact-filters";
import type { QueryVector } from "../../src/search/hybrid-query";
import { createLogger } from "../../src/lib/logger";
import { createWorkspaceWithKey, importContent, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

// A filtered search of a workspace past the size where it gets an IVFFlat index of its own. Such
// an index reads the lists nearest the query; a filter checked only on what those lists hold
// returns fewer rows than asked when the matching artifacts lie elsewhere. Here the workspace's
// index has four lists and the search reads one, as a large workspace's reads 30 of hundreds, and
// the artifacts a filter keeps are about something far from the query.

const T0 = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const TOPICS = [
  { source: "warehouse", text: (i: number) => `Quarterly revenue forecast for enterprise accounts, cut ${i}` },
  { source: "helpdesk", text: (i: number) => `Support ticket backlog for the mobile app, week ${i}` },
  { source: "hris", text: (i: number) => `Hiring pipeline for account executives, batch ${i}` },
  { source: "wms", text: (i: number) => `Warehouse shipping delays in northern Europe, route ${i}` },
];
const ARTIFACTS = 400;
/** The hiring artifacts the applicant tracking system is cited by: far from a revenue question. */
const ATS = 8;

interface Seeded {
  i: number;
  id: string;
  createdAt: number;
  validatedAt: number;
  confidence: number;
  dataSource: string;
}

let t: TestApp;
let big: WorkspaceWithKey;
let neighbour: WorkspaceWithKey;
const seeded: Seeded[] = [];
/** The REST answers of filtered searches while the workspace had no index of its own. */
const before = new Map<string, unknown>();

const rows = Array.from({ length: ARTIFACTS }, (_, i) => {
  const topic = TOPICS[i % TOPICS.length]!;
  const isAts = i % TOPICS.length === 2 && Math.floor(i / TOPICS.length) < ATS;
  return {
    i,
    createdAt: T0 + i * HOUR,
    validatedAt: T0 + i * HOUR + (i % 5) * DAY,
    confidence: (i % 20) / 20 + 0.025,
    dataSource: isAts ? "ats" : topic.source,
    summary: topic.text(i),
  };
});

const ODD_NAMES = ["The", "Survey Tool v2.1 (EU)", "churn_export.csv"];
const oddIds = new Map<string, string>();

/** The REST searches compared before and after the workspace gets its index. */
const REST_SEARCHES: Array<Record<string, string | number>> = [
  { query: "hiring pipeline for account executives", dataSource: "ats", limit: 5 },
  { query: "hiring pipeline for account executives", dataSource: "ats", limit: 20 },
  { query: "revenue forecast", minConfidence: 0.9, createdBefore: T0 + 200 * HOUR, limit: 20 },
  { query: "shipping delays", validatedAfter: T0 + 300 * HOUR, limit: 7 },
];

const restSearch = (params: Record<string, string | number>) => request(t.app).get("/api/v1/artifacts").query(params).set(big.auth);

beforeAll(async () => {
  t = await createTestApp();
  big = await createWorkspaceWithKey(t.services);
  neighbour = await createWorkspaceWithKey(t.services);
  const { artifactIds } = await importContent(t.services, big.workspaceId, {
    artifacts: rows.map((row) => ({
      summary: row.summary,
      why: "Tracked every week",
      confidence: row.confidence,
      confidenceExplanation: "Weekly numbers",
      createdAt: row.createdAt,
      validatedAt: row.validatedAt,
      dataSources: [{ type: "database" as const, name: row.dataSource }],
    })),
  });
  rows.forEach((row, index) => seeded.push({ ...row, id: artifactIds[index]! }));
  // Names whose words the full-text keys hold in part (punctuation, a version) or not at all (a stop word).
  for (const [n, name] of ODD_NAMES.entries()) {
    const odd = { i: ARTIFACTS + n, createdAt: T0 + 100 * HOUR, validatedAt: T0 + 100 * HOUR, confidence: 0.5, dataSource: name };
    const { artifactIds: [id] } = await importContent(t.services, big.workspaceId, {
      artifacts: [
        {
          summary: `Churn cohort table exported from ${name}`, why: "Tracked every week", confidence: odd.confidence, confidenceExplanation: "Weekly numbers",
          createdAt: odd.createdAt, validatedAt: odd.validatedAt, dataSources: [{ type: "file", name }],
        },
      ],
    });
    seeded.push({ ...odd, id: id! });
    oddIds.set(name, id!);
  }
  // Another workspace whose artifacts match the same filters and lie nearest the query.
  await importContent(t.services, neighbour.workspaceId, {
    artifacts: Array.from({ length: 5 }, (_, i) => ({
      summary: `Quarterly revenue forecast for enterprise accounts from the ATS, ${i}`,
      why: "Tracked every week",
      confidence: 0.99,
      confidenceExplanation: "Weekly numbers",
      createdAt: T0 + i * HOUR,
      dataSources: [{ type: "database" as const, name: "ats" }],
    })),
  });
  await t.services.indexer.runOnce();
  for (const params of REST_SEARCHES) before.set(JSON.stringify(params), (await restSearch(params).expect(200)).body);
  // The app reads a workspace's list of own indexes at most once a minute: the searches above
  // cached "none". A fresh app on the same database sees the index built below.
  const first = t;
  t = { ...(await createTestApp({ database: { ...first.database, close: async () => undefined }, embeddings: first.services.embeddings })), close: first.close };
  await createVectorIndexMaintenance({ vectorIndexes: createVectorIndexRepository(t.database.prisma), logger: createLogger("silent"), engine: t.database.kind, minVectors: 700 }).runOnce();
  // Four lists; one read, as a large workspace reads 30 of hundreds.
  await t.database.prisma.$executeRaw`UPDATE workspace_vector_indexes SET probes = 1 WHERE workspace_id = ${big.workspaceId} AND vector_table = 'artifact_embeddings'`;
});
afterAll(() => t.close());

const vectorOf = async (text: string): Promise<QueryVector> => ({ vector: (await t.services.embeddings.embed([text]))[0]!, model: t.services.embeddings.model });

/** A repository as the app builds it, with a fresh list of own indexes. */
const repository = (options: { exactMatchingMax?: number } = {}) =>
  createArtifactSearchRepository(t.database.prisma, createVectorIndexRepository(t.database.prisma, { engine: t.database.kind }), options);

const idsOf = (filter: (row: Seeded) => boolean) => seeded.filter(filter).map((row) => row.id).sort();
const ats = () => idsOf((row) => row.dataSource === "ats");
const REVENUE_QUESTION = "What is the quarterly revenue forecast for enterprise accounts?";

describe("a filtered search of a workspace with its own index", () => {
  it("reads one of the workspace's four lists", async () => {
    const index = await createVectorIndexRepository(t.database.prisma).describe(big.workspaceId, "artifact_embeddings");
    expect(index).toMatchObject({ valid: true, lists: 4 });
    expect((await repository().nearest(big.workspaceId, await vectorOf(REVENUE_QUESTION))).strategy).toBe("index");
  });

  it("would find fewer than the matching artifacts by filtering what the index returns unfiltered", async () => {
    const unfiltered = await repository().nearest(big.workspaceId, await vectorOf(REVENUE_QUESTION));
    expect(unfiltered.ids).toHaveLength(CANDIDATES_PER_SIDE);
    expect(unfiltered.ids.filter((id) => ats().includes(id)).length).toBeLessThan(ATS);
  });

  it("finds every matching artifact through the index, the filter holding while the index is read", async () => {
    const found = await repository({ exactMatchingMax: 0 }).nearest(big.workspaceId, await vectorOf(REVENUE_QUESTION), { dataSource: "ats" });
    expect(found.strategy).toBe("index");
    expect([...found.ids].sort()).toEqual(ats());
  });

  it("reads the workspace's own index for a filter that matches many artifacts", async () => {
    const own = (await createVectorIndexRepository(t.database.prisma).ownIndexes(big.workspaceId)).get("artifact_embeddings")!;
    const statement = filteredNearestQuery(big.workspaceId, await vectorOf(REVENUE_QUESTION), {
      exactDistance: createVectorIndexRepository(t.database.prisma, { engine: t.database.kind }).exactDistance,
      filters: { minConfidence: 0.1 },
      own,
    });
    // On Citus the index is read on a worker, whose scan counts the coordinator does not see (tests/citus/ reads them there).
    if (!process.env.WSI_TEST_CITUS) expect(await scansOwnIndex(t.database.prisma, big.workspaceId, statement)).toBe(true);
    const found = await repository({ exactMatchingMax: 100 }).nearest(big.workspaceId, await vectorOf(REVENUE_QUESTION), { minConfidence: 0.1 });
    expect(found.strategy).toBe("index");
    expect(found.ids).toHaveLength(CANDIDATES_PER_SIDE);
  });

  it("compares the vectors of the few matching artifacts exactly by default", async () => {
    const found = await repository().nearest(big.workspaceId, await vectorOf(REVENUE_QUESTION), { dataSource: "ats" });
    expect(found.strategy).toBe("matching");
    expect([...found.ids].sort()).toEqual(ats());
  });

  const cases: Array<[string, ArtifactFilters, (row: Seeded) => boolean]> = [
    ["createdAfter", { createdAfter: new Date(T0 + 370 * HOUR) }, (row) => row.createdAt >= T0 + 370 * HOUR],
    ["createdBefore", { createdBefore: new Date(T0 + 29 * HOUR) }, (row) => row.createdAt <= T0 + 29 * HOUR],
    ["validatedAfter", { validatedAfter: new Date(T0 + 420 * HOUR) }, (row) => row.validatedAt >= T0 + 420 * HOUR],
    ["validatedBefore", { validatedBefore: new Date(T0 + 20 * HOUR) }, (row) => row.validatedAt <= T0 + 20 * HOUR],
    ["dataSource", { dataSource: "ats" }, (row) => row.dataSource === "ats"],
    ["minConfidence", { minConfidence: 0.975 }, (row) => row.confidence >= 0.975],
    [
      "all of them",
      {
        createdAfter: new Date(T0 + 10 * HOUR), createdBefore: new Date(T0 + 390 * HOUR), validatedAfter: new Date(T0 + 2 * DAY),
        validatedBefore: new Date(T0 + 15 * DAY), dataSource: "warehouse", minConfidence: 0.5,
      },
      (row) =>
        row.createdAt >= T0 + 10 * HOUR && row.createdAt <= T0 + 390 * HOUR && row.validatedAt >= T0 + 2 * DAY && row.validatedAt <= T0 + 15 * DAY &&
        row.dataSource === "warehouse" && row.confidence >= 0.5,
    ],
  ];

  it.each(cases)("holds %s alike in every strategy: the index, the exact scan and the matching artifacts", async (_name, filters, keep) => {
    const expected = idsOf(keep);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThanOrEqual(CANDIDATES_PER_SIDE);
    const query = await vectorOf(REVENUE_QUESTION);
    const exactDistance = createVectorIndexRepository(t.database.prisma, { engine: t.database.kind }).exactDistance;
    const own = (await createVectorIndexRepository(t.database.prisma).ownIndexes(big.workspaceId)).get("artifact_embeddings")!;
    const ids = async (how: { own?: typeof own; matching?: string[] }) =>
      (await t.database.prisma.$queryRaw<Array<{ id: string }>>(filteredNearestQuery(big.workspaceId, query, { exactDistance, filters, ...how }))).map((row) => row.id).sort();
    expect(await ids({})).toEqual(expected);
    expect(await ids({ own })).toEqual(expected);
    expect(await ids({ matching: expected })).toEqual(expected);
    expect([...(await repository().nearest(big.workspaceId, query, filters)).ids].sort()).toEqual(expected);
  });

  it("ranks the same candidates through the index as by comparing every matching vector", async () => {
    const text = "Revenue forecast of the hiring pipeline";
    const query = { text, vector: embedQuery(t.services.embeddings, text, createLogger("silent")), vocabulary: [] };
    const filters: ArtifactFilters = { dataSource: "ats" };
    const through = async (exactMatchingMax: number) => rankFound(await repository({ exactMatchingMax }).candidates(big.workspaceId, query, filters), query, 20);
    const matching = await through(2_000);
    expect(matching.map((row) => row.id).sort()).toEqual(ats());
    // The index compares half floats where the embedded engine's exact scan widens them first
    // (src/db/vector-distance.ts): the same distances to within 4e-5, as without a filter.
    const indexed = await through(0);
    expect(indexed.map((row) => row.id)).toEqual(matching.map((row) => row.id));
    indexed.forEach((row, i) => expect(row.score).toBeCloseTo(matching[i]!.score, 4));
  });

  it.each(ODD_NAMES)("finds the one artifact citing %j among the matching ones, whatever words the name holds", async (name) => {
    const found = await repository().nearest(big.workspaceId, await vectorOf(REVENUE_QUESTION), { dataSource: name });
    expect(found).toEqual({ strategy: "matching", ids: [oddIds.get(name)] });
  });

  it.each(REST_SEARCHES)("answers GET /api/v1/artifacts as it did before the workspace had an index: %j", async (params) => {
    const res = await restSearch(params).expect(200);
    expect(res.body).toEqual(before.get(JSON.stringify(params)));
    expect(res.body.results.length).toBeGreaterThan(0);
  });

  it("returns `limit` matching artifacts when more match, every one when fewer do", async () => {
    const { body: five } = await restSearch({ query: "hiring pipeline for account executives", dataSource: "ats", limit: 5 }).expect(200);
    expect(five.results).toHaveLength(5);
    for (const result of five.results) expect(ats()).toContain(result.id);
    const { body: all } = await restSearch({ query: "hiring pipeline for account executives", dataSource: "ats", limit: 20 }).expect(200);
    expect(all.results.map((result: { id: string }) => result.id).sort()).toEqual(ats());
  });

  it("never returns another workspace's artifacts, though they match the filter and lie nearest the query", async () => {
    const { body } = await restSearch({ query: REVENUE_QUESTION, dataSource: "ats", limit: 20 }).expect(200);
    for (const result of body.results) expect(ats()).toContain(result.id);
  });
});
