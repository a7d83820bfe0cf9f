import { sqlLiteral, statementNamedByText, type NamedStatementParam } from "../../src/db/named-statement";
import { Prisma } from "../../src/generated/prisma/client";
import { CANDIDATES_PER_HALF, hybridCandidates, TEXT_HITS_READ, type CandidateScores, type HybridSearchSource } from "../../src/search/hybrid-candidates";
import { createWorkspaceWithKey, importContent } from "../support/factories";
import { realisticQuestion, realisticWorkspace } from "../support/realistic-workspace";
import { parsedPlan, planNodes, readsTable, type PlanNode } from "../support/plan-nodes";
import { createTestApp, type TestApp } from "../support/test-app";

// What a search's full-text statement reads, on a workspace like a customer's (bodies of a few KB,
// questions in the corpus's own words), before the planner has statistics (the embedded engine has
// no autovacuum: a workspace is searched long before the upkeep's ANALYZE). Counted from the plan,
// not timed: the statement that made search 3–7× slower read the same answer through the
// workspace's btree, computing every validated row's keys once per query word, and walked every
// validated row again once per candidate (docs/search.md, "What a search reads").

const ARTIFACTS = 300;

let t: TestApp;
let workspaceId: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ workspaceId } = await createWorkspaceWithKey(t.services));
  // Imported, never embedded and never analysed: the text statement needs neither.
  await importContent(t.services, workspaceId, realisticWorkspace({ artifacts: ARTIFACTS, memories: 150 }));
}, 120_000);
afterAll(() => t.close());

async function explainTextStatement(source: HybridSearchSource, question: string): Promise<PlanNode[]> {
  let plan: unknown;
  await hybridCandidates(
    async (sql) => {
      const [row] = await t.database.prisma.$queryRaw<Array<{ "QUERY PLAN": unknown }>>(Prisma.sql`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`);
      plan = typeof row!["QUERY PLAN"] === "string" ? JSON.parse(row!["QUERY PLAN"] as string) : row!["QUERY PLAN"];
      return [] as CandidateScores[];
    },
    source,
    { text: question },
  );
  return planNodes(plan);
}

const sources = (): Record<string, HybridSearchSource> => ({
  artifacts: {
    table: "artifacts",
    where: Prisma.sql`t.workspace_id = ${workspaceId} AND t.status = 'validated'`,
    collection: { workspaceId, name: "artifacts", keyOwner: "workspace_id", keyOwnerId: workspaceId },
    columns: { summary: "t.summary" },
    vectors: { nearest: () => Prisma.empty, similarity: () => Prisma.sql`NULL` },
  },
  memories: {
    table: "memories",
    where: Prisma.sql`t.workspace_id = ${workspaceId} AND t.active`,
    collection: { workspaceId, name: "memories", keyOwner: "workspace_id", keyOwnerId: workspaceId },
    columns: { statement: "t.statement" },
    vectors: { nearest: () => Prisma.empty, similarity: () => Prisma.sql`NULL` },
  },
});

describe.each(["artifacts", "memories"])("the full-text statement of a %s search", (table) => {
  const questions = [0, 1, 2, 3].map((n) => realisticQuestion(n, 0));

  it.each(questions)("reaches the rows through the keys' index and each candidate by its key: %s", async (question) => {
    const nodes = (await explainTextStatement(sources()[table]!, question)).filter((node) => readsTable(node, table));
    expect(nodes.length).toBeGreaterThan(0);
    for (const node of nodes) {
      const index = node["Index Name"] ?? "";
      // The hits through the search keys (a bitmap heap scan over their index), each candidate through the primary key.
      expect(node["Node Type"] === "Bitmap Heap Scan" || /_pkey(_\d+)?$/.test(index)).toBe(true);
      // Every row read is kept: none is read only to be thrown away by a filter.
      expect(node["Rows Removed by Filter"] ?? 0).toBe(0);
      expect(node["Rows Removed by Join Filter"] ?? 0).toBe(0);
    }
    // The hits read are bounded by TEXT_HITS_READ whatever the workspace's size; a candidate is read once.
    const rowsRead = nodes.reduce((sum, node) => sum + Math.round((node["Actual Rows"] ?? 0) * (node["Actual Loops"] ?? 1)), 0);
    expect(rowsRead).toBeLessThanOrEqual(1.1 * (TEXT_HITS_READ + CANDIDATES_PER_HALF));
  });
});

/** The text statement of an artifact search for `question`, as built (its text and values), without running it. */
async function textStatement(question: string): Promise<Prisma.Sql> {
  let statement: Prisma.Sql | undefined;
  await hybridCandidates(
    async (sql) => {
      statement = sql;
      return [] as CandidateScores[];
    },
    sources().artifacts!,
    { text: question },
  );
  return statement!;
}

/** The rows a plan reads from `table`, with the checks every text statement meets (above). */
function expectReadsThroughKeys(nodes: PlanNode[], table: string): void {
  const reading = nodes.filter((node) => readsTable(node, table));
  expect(reading.length).toBeGreaterThan(0);
  for (const node of reading) {
    expect(node["Node Type"] === "Bitmap Heap Scan" || /_pkey(_\d+)?$/.test(node["Index Name"] ?? "")).toBe(true);
    expect(node["Rows Removed by Filter"] ?? 0).toBe(0);
    expect(node["Rows Removed by Join Filter"] ?? 0).toBe(0);
  }
  const rowsRead = reading.reduce((sum, node) => sum + Math.round((node["Actual Rows"] ?? 0) * (node["Actual Loops"] ?? 1)), 0);
  expect(rowsRead).toBeLessThanOrEqual(1.1 * (TEXT_HITS_READ + CANDIDATES_PER_HALF));
}

// The embedded engine runs a search's statements named (artifact-search.repository.ts): after five
// runs PostgreSQL may keep one generic plan for every later value, planned without them. That plan
// must read what each custom plan reads. The PostgreSQL passes run them unnamed.
(process.env.TEST_DATABASE_URL ? describe.skip : describe)("the full-text statement of an artifact search, named, as the embedded engine runs it", () => {
  it("answers as the unnamed statement does, and its kept generic plan reaches the rows through the keys' index", async () => {
    const questions = [4, 5, 6, 7, 8, 9, 10, 11].map((n) => realisticQuestion(n, 0));
    let last: { statement: Prisma.Sql; name: string } | undefined;
    for (const question of questions) {
      const statement = await textStatement(question);
      const named = statementNamedByText("wsi_search", statement.text);
      const values = statement.values as NamedStatementParam[];
      expect(await t.database.executor.queryNamed(named, values)).toEqual(await t.database.executor.query(statement.text, values));
      last = { statement, name: named.name };
    }
    const explained = await t.database.executor.query<{ "QUERY PLAN": unknown }>(
      `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE ${last!.name}(${(last!.statement.values as NamedStatementParam[]).map(sqlLiteral).join(", ")})`,
    );
    const [kept] = await t.database.executor.query<{ generic_plans: number }>("SELECT generic_plans::int AS generic_plans FROM pg_prepared_statements WHERE name = $1", [last!.name]);
    // The plan just explained was the generic one.
    expect(kept!.generic_plans).toBeGreaterThan(0);
    expectReadsThroughKeys(planNodes(parsedPlan(explained[0]!["QUERY PLAN"])), "artifacts");
  });
});
