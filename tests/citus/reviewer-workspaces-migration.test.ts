import { migrateDatabase } from "../../src/db/database-readiness";
import { loadMigrations } from "../../src/db/migrations";
import { postgresDatabase, type Database } from "../../src/db/database";
import { createReviewerRepository } from "../../src/repositories/reviewer.repository";
import { TEST_DATABASE_URL, createEmptyDatabase, dropDatabase, uniqueDatabaseName } from "../support/postgres-server";

// The migration `reviewer_workspaces` on a database that was already distributed before it: the
// memberships made before are copied into the new table, which `npm run migrate` then makes a
// reference table, and the console reads a reviewer's workspaces from it.

const MIGRATION = "20261205090000_reviewer_workspaces";
const SERVER = TEST_DATABASE_URL!;
const name = uniqueDatabaseName("wsi_reviewer_workspaces");
let database: Database | undefined;

afterAll(async () => {
  await database?.close();
  await dropDatabase(SERVER, name);
});

describe("a reviewer's workspaces, on a database distributed before the migration", () => {
  it("are copied from the memberships, read from a reference table afterwards", async () => {
    const url = await createEmptyDatabase(SERVER, name);
    await migrateDatabase(url, { migrations: loadMigrations().filter((migration) => migration.name !== MIGRATION) });
    database = postgresDatabase(url);
    // What the release before wrote: two workspaces, a reviewer of both.
    await database.executor.exec(`
      INSERT INTO organizations (id, name) VALUES ('org_m', 'Acme');
      INSERT INTO workspaces (id, organization_id, name, updated_at) VALUES ('ws_m1', 'org_m', 'North', now()), ('ws_m2', 'org_m', 'South', now());
      INSERT INTO reviewers (id, email, name, password_hash) VALUES ('rev_m', 'm@acme.test', 'M', 'scrypt$x');
      INSERT INTO workspace_reviewers (workspace_id, reviewer_id) VALUES ('ws_m1', 'rev_m'), ('ws_m2', 'rev_m');`);

    expect(await migrateDatabase(url)).toContain(MIGRATION);
    const [placed] = await database.executor.query<{ kind: string }>(
      `SELECT CASE WHEN partmethod = 'n' AND repmodel = 't' THEN 'reference' ELSE partmethod::text || repmodel::text END AS kind
       FROM pg_dist_partition WHERE logicalrelid = 'reviewer_workspaces'::regclass`,
    );
    expect(placed?.kind).toBe("reference");
    expect(await createReviewerRepository(database.prisma).workspacesOf("rev_m")).toEqual([
      { id: "ws_m1", name: "North" },
      { id: "ws_m2", name: "South" },
    ]);
  });
});
