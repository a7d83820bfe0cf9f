import { readFileSync } from "node:fs";
import path from "node:path";
import request from "supertest";
import { DEMO_DOCUMENT } from "../../src/bootstrap/demo-workspace";
import { createVectorIndexRepository, workspaceIndexName, type VectorTable } from "../../src/repositories/vector-index.repository";
import { consoleSession, createReviewer } from "../support/console";
import { adminAuth, createKey, createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { NOT_PER_WORKSPACE, readCatalog } from "../support/table-distribution";
import { createTestApp, type TestApp } from "../support/test-app";

// DELETE /admin/v1/workspaces/{id}: no row of the workspace is left in any table (read from the
// catalog, so a table a later migration adds is checked too), nor a blob, an OAuth record, a
// rate-limit counter or an index of its own; a second workspace filled the same way is untouched.

const demo = JSON.parse(readFileSync(path.join(__dirname, "../..", DEMO_DOCUMENT), "utf8"));
const VECTOR_TABLES: VectorTable[] = ["artifact_embeddings", "memories", "query_patterns", "error_learnings"];

let t: TestApp;
let doomed: WorkspaceWithKey;
let kept: WorkspaceWithKey;
let onlyDoomed: { email: string; password: string; id: string };
let inBoth: { email: string; password: string; id: string };

const admin = () => adminAuth(t.adminToken);
const sql = <T>(text: string, ...values: unknown[]) => t.database.prisma.$queryRawUnsafe<T[]>(text, ...values);

/** Every table with a workspace_id column (and workspaces by its id), with that workspace's rows in it. */
async function rowsPerTable(workspaceId: string): Promise<Record<string, number>> {
  const { tables } = await readCatalog(t.database.executor);
  const counts: Record<string, number> = {};
  for (const table of tables) {
    if (!table.column) continue;
    const [row] = await sql<{ n: bigint }>(`SELECT count(*) AS n FROM "${table.name}" WHERE "${table.column}" = $1`, workspaceId);
    counts[table.name] = Number(row!.n);
  }
  return counts;
}

/**
 * Indexes that name the workspace: its own indexes where they live (on Citus, the workspace's
 * shards on a worker), and any index of the node the service connects to that names its id in a
 * predicate or its own index names.
 */
async function ownIndexes(workspaceId: string): Promise<string[]> {
  const indexes = createVectorIndexRepository(t.database.prisma, { engine: t.database.kind });
  const own = (await Promise.all(VECTOR_TABLES.map((table) => indexes.describe(workspaceId, table)))).flatMap((index) => (index ? [index.name] : []));
  const named = await sql<{ name: string }>(
    `SELECT c.relname::text AS name FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid
     WHERE c.relname = ANY($1::text[]) OR pg_get_expr(x.indpred, x.indrelid) LIKE '%' || $2 || '%'`,
    VECTOR_TABLES.flatMap((table) => [workspaceIndexName(workspaceId, table), `${workspaceIndexName(workspaceId, table)}_next`]),
    workspaceId,
  );
  return [...new Set([...own, ...named.map((row) => row.name)])];
}

/** A workspace with something in every table a workspace can reach. */
async function fill(ws: WorkspaceWithKey, reviewers: Array<{ id: string }>) {
  await request(t.app).post(`/admin/v1/workspaces/${ws.workspaceId}/import`).set(admin()).send(demo).expect(200);
  const pushed = await request(t.app)
    .post("/api/v1/artifacts")
    .set(ws.auth)
    .set("Idempotency-Key", "fill-1")
    .send({ summary: "Pushed draft", why: "A draft", confidence: 0.5, confidenceExplanation: "None", content: "Body ".repeat(400) })
    .expect(201);
  await request(t.app).post(`/admin/v1/workspaces/${ws.workspaceId}/artifacts/${pushed.body.artifactId}/validate`).set(admin()).send({ by: "ana@acme.example" }).expect(200);
  await createKey(t.services, ws.workspaceId, { keyName: "second key" });
  // A connected app (an OAuth grant) with a token of it, and rate-limit counters of the key and the grant.
  const grantId = `grant-${ws.workspaceId}`;
  await t.services.connectedApps.create(ws.workspaceId, { id: grantId, reviewerId: reviewers[0]!.id, grantedBy: "r@acme.test", clientId: `client-${ws.workspaceId}`, clientName: "Claude", redirectHost: "claude.ai", scopes: ["artifacts:read"] });
  await sql(`INSERT INTO oauth_records (kind, key, payload, grant_id) VALUES ('AccessToken', $1, '{}', $2)`, `token-${ws.workspaceId}`, grantId);
  // On PostgreSQL the key's pushes have counted already (shared counters): add to that row.
  await sql(
    `INSERT INTO rate_limit_counters (key, hits, reset_at) VALUES ($1, 3, now() + interval '1 minute'), ($2, 1, now() + interval '1 minute')
     ON CONFLICT (key) DO UPDATE SET hits = rate_limit_counters.hits + excluded.hits`,
    `key:${ws.keyId}`,
    `key:${grantId}`,
  );
  await t.services.indexer.runOnce(ws.workspaceId);
  // Its own vector index on every table, as a workspace past the size for one gets.
  const indexes = createVectorIndexRepository(t.database.prisma, { engine: t.database.kind });
  for (const table of VECTOR_TABLES) await indexes.create(ws.workspaceId, table, { concurrently: false, documents: 1 });
  // And a rebuild the upkeep could not do.
  await indexes.refuse(ws.workspaceId, "memories", { vectors: 2, error: "an index of even 1 list needs 10 MB of maintenance_work_mem; a build may use 4 MB" });
}

beforeAll(async () => {
  t = await createTestApp();
  doomed = await createWorkspaceWithKey(t.services, { workspaceName: "Doomed" });
  kept = await createWorkspaceWithKey(t.services, { workspaceName: "Kept" });
  onlyDoomed = await createReviewer(t, doomed.workspaceId);
  inBoth = await createReviewer(t, doomed.workspaceId);
  await t.services.reviewers.add(kept.workspaceId, { email: inBoth.email, name: "Both", password: inBoth.password });
  await fill(doomed, [onlyDoomed]);
  await fill(kept, [inBoth]);
});
afterAll(() => t.close());

describe("DELETE /admin/v1/workspaces/{id}", () => {
  it("leaves no row of the workspace in any table, no blob, OAuth record, counter, session or index of its own; the other workspace is untouched", async () => {
    const before = await rowsPerTable(doomed.workspaceId);
    // Filled: every table a workspace's rows live in has some, so that "none left" means something.
    const { tables } = await readCatalog(t.database.executor);
    const perWorkspace = tables.filter((table) => table.column && !(table.name in NOT_PER_WORKSPACE)).map((table) => table.name);
    expect(perWorkspace.filter((table) => before[table] === 0)).toEqual([]);
    expect((await ownIndexes(doomed.workspaceId)).length).toBe(4);
    const keptBefore = await rowsPerTable(kept.workspaceId);
    const keptBlobs = await sql(`SELECT key FROM stored_blobs WHERE key LIKE $1 ORDER BY key`, `workspaces/${kept.workspaceId}/%`);
    const keptBriefing = (await request(t.app).get("/api/v1/briefing").set(kept.auth).expect(200)).body;
    const shared = await consoleSession(t, inBoth.email, inBoth.password);
    const alone = await consoleSession(t, onlyDoomed.email, onlyDoomed.password);
    await request(t.app).get("/api/v1/briefing").set(doomed.auth).expect(200);

    const started = Date.now();
    const res = await request(t.app).delete(`/admin/v1/workspaces/${doomed.workspaceId}`).set(admin());
    const elapsed = Date.now() - started;
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ workspaceId: doomed.workspaceId, rows: expect.objectContaining({ workspaces: 1, artifacts: demo.artifacts.length + 1 }), blobsRemoved: expect.any(Number) });
    expect(res.body.indexesDropped).toHaveLength(4);
    expect(elapsed).toBeLessThan(60_000);

    expect(Object.entries(await rowsPerTable(doomed.workspaceId)).filter(([, n]) => n > 0)).toEqual([]);
    expect(await sql(`SELECT key FROM stored_blobs WHERE key LIKE $1`, `workspaces/${doomed.workspaceId}/%`)).toEqual([]);
    expect(await sql(`SELECT key FROM oauth_records WHERE grant_id = $1 OR key = $2`, `grant-${doomed.workspaceId}`, `token-${doomed.workspaceId}`)).toEqual([]);
    expect(await sql(`SELECT key FROM rate_limit_counters WHERE key IN ($1, $2)`, `key:${doomed.keyId}`, `key:grant-${doomed.workspaceId}`)).toEqual([]);
    expect(await ownIndexes(doomed.workspaceId)).toEqual([]);
    // The account that reached only this workspace is gone with its sessions; the other keeps its own.
    expect(await sql(`SELECT id FROM reviewers WHERE id = $1 UNION ALL SELECT id FROM reviewer_sessions WHERE reviewer_id = $1`, onlyDoomed.id)).toEqual([]);
    expect(await sql(`SELECT id FROM reviewers WHERE id = $1`, inBoth.id)).toHaveLength(1);

    // The other workspace: every row, blob and index of its own as before, and it answers as before.
    expect(await rowsPerTable(kept.workspaceId)).toEqual(keptBefore);
    expect(await sql(`SELECT key FROM stored_blobs WHERE key LIKE $1 ORDER BY key`, `workspaces/${kept.workspaceId}/%`)).toEqual(keptBlobs);
    expect((await ownIndexes(kept.workspaceId)).length).toBe(4);
    expect((await request(t.app).get("/api/v1/briefing").set(kept.auth).expect(200)).body).toEqual(keptBriefing);
    const queue = await shared.agent.get("/console").expect(200);
    expect(queue.text).toContain("Kept");
    expect(queue.text).not.toContain("Doomed");
    await alone.agent.get("/console").expect(303);
  });

  it("refuses the deleted workspace's key at once, and answers 404 for it from then on", async () => {
    const res = await request(t.app).get("/api/v1/briefing").set(doomed.auth);
    expect(res.status).toBe(401);
    const again = await request(t.app).delete(`/admin/v1/workspaces/${doomed.workspaceId}`).set(admin());
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: `Workspace ${doomed.workspaceId} not found`, code: "not_found" });
    await request(t.app).get(`/admin/v1/workspaces/${doomed.workspaceId}/export`).set(admin()).expect(404);
  });

  it("answers 404 for an unknown workspace and 401 without the admin token, deleting nothing", async () => {
    expect((await request(t.app).delete("/admin/v1/workspaces/ws_nothing").set(admin())).body).toEqual({ error: "Workspace ws_nothing not found", code: "not_found" });
    await request(t.app).delete(`/admin/v1/workspaces/${kept.workspaceId}`).expect(401);
    await request(t.app).get("/api/v1/briefing").set(kept.auth).expect(200);
  });
});
