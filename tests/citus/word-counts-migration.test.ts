import request from "supertest";
import { migrateDatabase } from "../../src/db/database-readiness";
import { loadMigrations } from "../../src/db/migrations";
import { validatedArtifact } from "../support/artifacts";
import { adminAuth, createWorkspaceWithKey } from "../support/factories";
import { TEST_DATABASE_URL, createEmptyDatabase, dropDatabase, uniqueDatabaseName } from "../support/postgres-server";
import { createTestApp, type TestApp } from "../support/test-app";

// The migration `word_counts_shrink` on a database that was already distributed before it: the
// word-count trigger runs on the workers' shards, so the new function must reach them, and the
// rows the older function left at 0 go.

const SHRINK = "20261201100000_word_counts_shrink";
const SERVER = TEST_DATABASE_URL!;
const name = uniqueDatabaseName("wsi_word_counts");
let t: TestApp | undefined;

afterAll(async () => {
  await t?.close();
  await dropDatabase(SERVER, name);
});

describe("word counts that shrink, on a database distributed before the migration", () => {
  it("removes the rows left at 0, and the trigger on the shards removes a word's row with its last document", async () => {
    const url = await createEmptyDatabase(SERVER, name);
    // Every migration but this one: the service of this release, which fills the database below,
    // needs the later ones (the keys' digests, migration key_digests).
    await migrateDatabase(url, { migrations: loadMigrations().filter((migration) => migration.name !== SHRINK) });
    t = await createTestApp({ databaseUrl: url });
    const ws = await createWorkspaceWithKey(t.services);
    const rows = async () =>
      (await t!.database.executor.query<{ n: number }>(`SELECT count(*)::int AS n FROM search_term_counts WHERE workspace_id = $1`, [ws.workspaceId]))[0]!.n;
    const remove = (id: string) => request(t!.app).delete(`/admin/v1/workspaces/${ws.workspaceId}/artifacts/${id}`).set(adminAuth(t!.adminToken)).expect(204);

    await remove(await validatedArtifact(t, ws.auth, { summary: "Pelican renewals slipped" }));
    // The older trigger keeps every word it ever counted, at 0.
    expect(await rows()).toBeGreaterThan(0);

    expect(await migrateDatabase(url)).toContain(SHRINK);
    expect(await rows()).toBe(0);
    const id = await validatedArtifact(t, ws.auth, { summary: "Walrus renewals slipped" });
    expect(await rows()).toBeGreaterThan(0);
    await remove(id);
    expect(await rows()).toBe(0);
  });
});
