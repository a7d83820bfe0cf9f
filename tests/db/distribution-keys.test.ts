import type { Database } from "../../src/db/database";
import { distributionProblems, NOT_PER_WORKSPACE, readCatalog } from "../support/table-distribution";
import { openTestDatabase } from "../support/test-app";

// Every table of the migrated schema, read from the catalog rather than from a list: one that a
// later migration adds, or a unique index it adds, fails here unless it carries workspace_id or
// is declared shared, with its reason, in tests/support/table-distribution.ts.

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

describe("keys that carry the workspace (the migrated catalog)", () => {
  it("finds nothing that keeps a table of workspace rows from being split by workspace_id", async () => {
    expect(await distributionProblems(database.executor)).toEqual([]);
  });

  it("declares only tables that exist, each with a reason", async () => {
    const { tables } = await readCatalog(database.executor);
    const names = tables.map((table) => table.name);
    for (const [table, { why }] of Object.entries(NOT_PER_WORKSPACE)) {
      expect({ table, exists: names.includes(table) }).toEqual({ table, exists: true });
      expect(why.length).toBeGreaterThan(20);
    }
  });

  it("counts every other table as distributed, workspaces included", async () => {
    const { tables } = await readCatalog(database.executor);
    const distributed = tables.map((table) => table.name).filter((name) => !(name in NOT_PER_WORKSPACE));
    expect(distributed).toEqual(expect.arrayContaining(["workspaces", "api_keys", "artifacts", "artifact_embeddings", "search_term_counts", "workspace_vector_indexes"]));
    expect(distributed.length).toBe(tables.length - Object.keys(NOT_PER_WORKSPACE).length);
  });

  // On Citus the database itself refuses such a unique index on a distributed table (tests/citus/).
  const onCitus = Boolean(process.env.WSI_TEST_CITUS);
  (onCitus ? it.skip : it)("reports a table, a unique index and a foreign key added later without workspace_id", async () => {
    const db = database.executor;
    await db.exec(`
      CREATE TABLE "widgets" ("id" TEXT PRIMARY KEY, "note" TEXT);
      CREATE TABLE "gadgets" ("workspace_id" TEXT, "id" TEXT, "owner_id" TEXT, UNIQUE ("workspace_id", "id"));
      CREATE UNIQUE INDEX "artifacts_summary_key" ON "artifacts"("summary");
      ALTER TABLE "gadgets" ADD CONSTRAINT "gadgets_owner_fkey" FOREIGN KEY ("owner_id") REFERENCES "workspaces"("id");
      ALTER TABLE "reviewers" ADD CONSTRAINT "reviewers_gadget_fkey" FOREIGN KEY ("id", "name") REFERENCES "gadgets"("workspace_id", "id")`);
    try {
      expect(await distributionProblems(db)).toEqual([
        "gadgets: workspace_id may be NULL",
        "widgets: no workspace_id column",
        "artifacts: unique index artifacts_summary_key (summary) lacks workspace_id",
        "widgets: primary key widgets_pkey (id) lacks workspace_id",
        "gadgets: foreign key gadgets_owner_fkey (owner_id) does not pair workspace_id with workspaces.id",
        "reviewers: foreign key reviewers_gadget_fkey refers from a shared table to gadgets, whose rows are one workspace's",
      ]);
    } finally {
      await db.exec(`
        ALTER TABLE "reviewers" DROP CONSTRAINT "reviewers_gadget_fkey";
        DROP INDEX "artifacts_summary_key";
        DROP TABLE "gadgets";
        DROP TABLE "widgets"`);
    }
  });
});
