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
/** An index that finds a candidate by its key: the primary key, or (with statistics, which make it the planner's choice) the index of the id alone. */
const BY_KEY = /(_pkey|_id_idx)(_\d+)?$/;

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

const sources = (workspace = workspaceId): Record<string, HybridSearchSource> => ({
  artifacts: {
    table: "artifacts",
    where: Prisma.sql`t.workspace_id = ${workspace} AND t.status = 'validated'`,
    collection: { workspaceId: workspace, name: "artifacts", keyOwner: "workspace_id", keyOwnerId: workspace },
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
      expect(node["Node Type"] === "Bitmap Heap Scan" || BY_KEY.test(index)).toBe(true);
      // Every row read is kept: none is read only to be thrown away by a filter.
      expect(node["Rows Removed by Filter"] ?? 0).toBe(0);
      expect(node["Rows Removed by Join Filter"] ?? 0).toBe(0);
    }
    // The hits read are bounded by TEXT_HITS_READ whatever the workspace's size; a candidate is read once.
    const rowsRead = nodes.reduce((sum, node) => sum + Math.round((node["Actual Rows"] ?? 0) * (node["Actual Loops"] ?? 1)), 0);
    expect(rowsRead).toBeLessThanOrEqual(1.1 * (TEXT_HITS_READ + CANDIDATES_PER_HALF));
  });
});

/** The text statement of an artifact search for `question` in `workspace`, as built (its text and values), without running it. */
async function textStatement(question: string, workspace = workspaceId): Promise<Prisma.Sql> {
  let statement: Prisma.Sql | undefined;
  await hybridCandidates(
    async (sql) => {
      statement = sql;
      return [] as CandidateScores[];
    },
    sources(workspace).artifacts!,
    { text: question },
  );
  return statement!;
}

/** The rows a plan reads from `table`, with the checks every text statement meets (above). */
function expectReadsThroughKeys(nodes: PlanNode[], table: string): void {
  const reading = nodes.filter((node) => readsTable(node, table));
  expect(reading.length).toBeGreaterThan(0);
  for (const node of reading) {
    expect(node["Node Type"] === "Bitmap Heap Scan" || BY_KEY.test(node["Index Name"] ?? "")).toBe(true);
    expect(node["Rows Removed by Filter"] ?? 0).toBe(0);
    expect(node["Rows Removed by Join Filter"] ?? 0).toBe(0);
  }
  const rowsRead = reading.reduce((sum, node) => sum + Math.round((node["Actual Rows"] ?? 0) * (node["Actual Loops"] ?? 1)), 0);
  expect(rowsRead).toBeLessThanOrEqual(1.1 * (TEXT_HITS_READ + CANDIDATES_PER_HALF));
}

// The embedded engine and plain PostgreSQL run a search's statements named
// (artifact-search.repository.ts): after five runs the engine may keep one generic plan for every
// later value, planned without them. That plan must read what each custom plan reads. Citus runs
// them unnamed. One connection throughout: a name is prepared on the connection that ran it.
(process.env.WSI_TEST_CITUS ? describe.skip : describe)("the full-text statement of an artifact search, named, as the embedded engine and PostgreSQL run it", () => {
  it("answers as the unnamed statement does, and its kept generic plan reaches the rows through the keys' index", async () => {
    const questions = [4, 5, 6, 7, 8, 9, 10, 11].map((n) => realisticQuestion(n, 0));
    await t.database.onOneConnection(async (session) => {
      let last: { statement: Prisma.Sql; name: string } | undefined;
      for (const question of questions) {
        const statement = await textStatement(question);
        const named = statementNamedByText("wsi_search", statement.text);
        const values = statement.values as NamedStatementParam[];
        expect(await session.queryNamed(named, values)).toEqual(await session.query(statement.text, values));
        last = { statement, name: named.name };
      }
      const explained = await session.query<{ "QUERY PLAN": unknown }>(
        `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE ${last!.name}(${(last!.statement.values as NamedStatementParam[]).map(sqlLiteral).join(", ")})`,
      );
      const [kept] = await session.query<{ generic_plans: number }>("SELECT generic_plans::int AS generic_plans FROM pg_prepared_statements WHERE name = $1", [last!.name]);
      // The plan just explained was the generic one.
      expect(kept!.generic_plans).toBeGreaterThan(0);
      expectReadsThroughKeys(planNodes(parsedPlan(explained[0]!["QUERY PLAN"])), "artifacts");
    });
  });
});

// One name serves every workspace on a connection, so its generic plan, made once, must suit a
// workspace of a few artifacts and a large one alike, now with the statistics the upkeep's
// ANALYZE (or autovacuum) gives the planner. Last in the file: the statistics stay.
(process.env.WSI_TEST_CITUS ? describe.skip : describe)("the named full-text statement, with statistics, for a small and a large workspace in turn", () => {
  it("keeps a generic plan that reaches either workspace's rows through the keys' index", async () => {
    const { workspaceId: small } = await createWorkspaceWithKey(t.services);
    await importContent(t.services, small, realisticWorkspace({ artifacts: 5, memories: 5 }));
    await t.database.executor.query("ANALYZE artifacts");
    await t.database.onOneConnection(async (session) => {
      const asked = [12, 13, 14, 15, 16, 17, 18, 19].map((n, i) => ({ question: realisticQuestion(n, 0), workspace: i % 2 ? small : workspaceId }));
      const statements = await Promise.all(asked.map(({ question, workspace }) => textStatement(question, workspace)));
      const name = statementNamedByText("wsi_search", statements[0]!.text).name;
      for (const statement of statements) {
        const values = statement.values as NamedStatementParam[];
        expect(statementNamedByText("wsi_search", statement.text).name).toBe(name);
        expect(await session.queryNamed({ name, text: statement.text }, values)).toEqual(await session.query(statement.text, values));
      }
      for (const statement of statements.slice(-2)) {
        const explained = await session.query<{ "QUERY PLAN": unknown }>(
          `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE ${name}(${(statement.values as NamedStatementParam[]).map(sqlLiteral).join(", ")})`,
        );
        expectReadsThroughKeys(planNodes(parsedPlan(explained[0]!["QUERY PLAN"])), "artifacts");
      }
      const [kept] = await session.query<{ generic_plans: number }>("SELECT generic_plans::int AS generic_plans FROM pg_prepared_statements WHERE name = $1", [name]);
      expect(kept!.generic_plans).toBeGreaterThan(1);
    });
  });
});
