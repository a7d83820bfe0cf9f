import { readFileSync } from "node:fs";
import path from "node:path";
import request from "supertest";
import { createArtifactSearchRepository, filteredNearestQuery, nearestQuery, scansOwnIndex } from "../../src/repositories/artifact-search.repository";
import { createVectorIndexRepository, workspaceIndexName } from "../../src/repositories/vector-index.repository";
import { projectRoot } from "../../src/lib/project-root";
import { pushArtifact, validateArtifact, validatedArtifact } from "../support/artifacts";
import { createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { buildOwnIndexes } from "../support/own-indexes";
import { distributionProblems } from "../support/table-distribution";
import { createTestApp, type TestApp } from "../support/test-app";

// An operator who outgrows one server's tables splits them into hash partitions by workspace_id
// with scripts/partition-by-workspace.sql (docs/deployment.md §6). Here the artifacts, their
// vectors and the memories are split while they hold rows; pushes, reviews, search, the word
// counts, the indexer and each large workspace's own vector index keep working.

const PARTITIONED = ["artifacts", "artifact_embeddings", "memories"];

let t: TestApp;
let crowded: WorkspaceWithKey;
let small: WorkspaceWithKey;
let countsBefore: string;
let countsAfter: string;

/** The operator's script on one table, sent as one statement so that it runs on one connection. */
const partitionByWorkspace = (table: string) =>
  t.database.executor.exec(`${readFileSync(path.join(projectRoot(), "scripts/partition-by-workspace.sql"), "utf8")};
    SELECT pg_temp.partition_by_workspace('${table}', 4)`);

/** Every row of the word counts, as text. */
const wordCounts = async () =>
  (await t.database.executor.query<{ counts: string }>(
    `SELECT coalesce(string_agg(concat_ws(' ', workspace_id, collection, lexeme, documents), E'\\n' ORDER BY workspace_id, collection, lexeme), '') AS counts
     FROM search_term_counts`,
  ))[0]!.counts;

const forecast = (i: number) => ({ summary: `Quarterly revenue forecast for enterprise accounts ${i}` });

beforeAll(async () => {
  t = await createTestApp();
  crowded = await createWorkspaceWithKey(t.services);
  small = await createWorkspaceWithKey(t.services);
  for (let i = 0; i < 15; i++) await validatedArtifact(t, crowded.auth, forecast(i));
  countsBefore = await wordCounts();
  for (const table of PARTITIONED) await partitionByWorkspace(table);
  countsAfter = await wordCounts();
  for (let i = 15; i < 30; i++) await validatedArtifact(t, crowded.auth, forecast(i));
  await validatedArtifact(t, small.auth, { summary: "Refund rate rose for mobile customers", content: "Mobile refunds rose.\nMostly annual plans." });
  await t.services.indexer.runOnce();
});
afterAll(() => t.close());

const vectorOf = async (text: string) => ({ vector: (await t.services.embeddings.embed([text]))[0]!, model: t.services.embeddings.model });

/** The partition that holds a workspace's vector rows, and the table its own index is built on. */
async function placement(workspaceId: string) {
  const [row] = await t.database.executor.query<{ rows: string; index: string | null }>(
    `SELECT (SELECT tableoid::regclass::text FROM "artifact_embeddings" WHERE "workspace_id" = $1 LIMIT 1) AS rows,
            (SELECT x.indrelid::regclass::text FROM pg_index x WHERE x.indexrelid = to_regclass($2)) AS index`,
    [workspaceId, `"${workspaceIndexName(workspaceId, "artifact_embeddings")}"`],
  );
  return row!;
}

describe("artifacts, their vectors and memories in hash partitions by workspace", () => {
  it("splits each table with its rows and leaves the word counts as they were", async () => {
    const split = await t.database.executor.query<{ name: string; partitions: number }>(
      `SELECT c.relname AS name, (SELECT count(*)::int FROM pg_inherits i WHERE i.inhparent = c.oid) AS partitions
       FROM pg_class c WHERE c.relname = ANY($1::text[]) AND c.relkind = 'p' ORDER BY c.relname`,
      [PARTITIONED],
    );
    expect(split).toEqual([...PARTITIONED].sort().map((name) => ({ name, partitions: 4 })));
    expect(await distributionProblems(t.database.executor)).toEqual([]);
    expect(countsAfter).toBe(countsBefore);
    const artifacts = await t.database.executor.query(`SELECT count(*)::int AS rows FROM artifacts WHERE workspace_id = $1`, [crowded.workspaceId]);
    expect(artifacts).toEqual([{ rows: 30 }]);
  });

  it("stores each workspace's vectors, body chunks included, in one partition", async () => {
    const rows = await t.database.executor.query<{ partitions: number; chunks: number }>(
      `SELECT count(DISTINCT tableoid)::int AS partitions, count(*) FILTER (WHERE part > 0)::int AS chunks FROM "artifact_embeddings" WHERE "workspace_id" = $1`,
      [small.workspaceId],
    );
    expect(rows).toEqual([{ partitions: 1, chunks: 1 }]);
  });

  it("finds a workspace's artifacts by meaning and by words", async () => {
    const res = await request(t.app).get("/api/v1/artifacts?query=mobile%20refunds").set(small.auth).expect(200);
    expect(res.body.results.map((result: { summary: string }) => result.summary)).toEqual(["Refund rate rose for mobile customers"]);
  });

  it("counts a reviewed draft's words and finds it once validated", async () => {
    const id = await pushArtifact(t, small.auth, { summary: "Zeppelin freight costs doubled" });
    await validateArtifact(t, id);
    const [count] = await t.database.executor.query(
      `SELECT documents FROM search_term_counts WHERE workspace_id = $1 AND collection = 'artifacts' AND lexeme = 'zeppelin'`,
      [small.workspaceId],
    );
    expect(count).toEqual({ documents: 1 });
    const res = await request(t.app).get("/api/v1/artifacts?query=zeppelin").set(small.auth).expect(200);
    expect(res.body.results.map((result: { id: string }) => result.id)).toEqual([id]);
  });

  it("builds a large workspace's own index on the partition that holds it, and searches through it", async () => {
    const built = await buildOwnIndexes(t, 10);
    expect(built).toContainEqual(expect.objectContaining({ workspaceId: crowded.workspaceId, table: "artifact_embeddings", documents: 30 }));
    const { rows, index } = await placement(crowded.workspaceId);
    expect(rows).toMatch(/^artifact_embeddings_p\d$/);
    expect(index).toBe(rows);
    const query = await vectorOf("enterprise revenue forecast");
    const indexes = createVectorIndexRepository(t.database.prisma, { engine: t.database.kind });
    const found = await createArtifactSearchRepository(t.database.prisma, indexes).nearest(crowded.workspaceId, query);
    expect(found.strategy).toBe("index");
    const own = (await indexes.ownIndexes(crowded.workspaceId)).get("artifact_embeddings");
    const { exactDistance } = indexes;
    expect(await scansOwnIndex(t.database.prisma, crowded.workspaceId, nearestQuery(crowded.workspaceId, query, { exactDistance, own }))).toBe(true);
    const exact = await t.database.prisma.$queryRaw<Array<{ id: string }>>(nearestQuery(crowded.workspaceId, query, { exactDistance }));
    expect(found.ids).toEqual(exact.map((row) => row.id));
  });

  it("narrows a search by a filter through the partition's own index, joined to the partitioned artifacts", async () => {
    const [{ since }] = await t.database.prisma.$queryRaw<[{ since: Date }]>`
      SELECT min(created_at) AS since FROM (SELECT created_at FROM artifacts WHERE workspace_id = ${crowded.workspaceId} ORDER BY created_at DESC LIMIT 10) AS newest`;
    const filters = { createdAfter: since };
    const query = await vectorOf("enterprise revenue forecast");
    const indexes = createVectorIndexRepository(t.database.prisma, { engine: t.database.kind });
    const own = (await indexes.ownIndexes(crowded.workspaceId)).get("artifact_embeddings");
    const statement = filteredNearestQuery(crowded.workspaceId, query, { exactDistance: indexes.exactDistance, filters, own });
    expect(await scansOwnIndex(t.database.prisma, crowded.workspaceId, statement)).toBe(true);
    const found = await createArtifactSearchRepository(t.database.prisma, indexes, { exactMatchingMax: 0 }).nearest(crowded.workspaceId, query, filters);
    expect(found.strategy).toBe("index");
    const exact = await t.database.prisma.$queryRaw<Array<{ id: string }>>(filteredNearestQuery(crowded.workspaceId, query, { exactDistance: indexes.exactDistance, filters }));
    expect(exact).toHaveLength(10);
    expect([...found.ids].sort()).toEqual(exact.map((row) => row.id).sort());
  });
});
