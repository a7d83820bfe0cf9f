import request from "supertest";
import { pushArtifact, validatedArtifact } from "../support/artifacts";
import { adminAuth, createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

// search_term_counts holds a workspace's live vocabulary: a word's row goes with the last
// searchable document that holds it, so deleting and re-adding the same content leaves the table
// as it was, not a row larger per word ever seen.

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Every word count of the workspace, one line each, in key order. */
const wordCounts = async (workspaceId: string) =>
  (
    await t.database.executor.query<{ line: string }>(
      `SELECT concat_ws(' ', collection, lexeme, documents) AS line FROM search_term_counts WHERE workspace_id = $1 ORDER BY collection, lexeme`,
      [workspaceId],
    )
  ).map((row) => row.line);

const countOf = async (workspaceId: string, lexeme: string) =>
  (
    await t.database.executor.query<{ documents: number }>(
      `SELECT documents FROM search_term_counts WHERE workspace_id = $1 AND collection = 'artifacts' AND lexeme = $2`,
      [workspaceId, lexeme],
    )
  )[0]?.documents;

const findings = Array.from({ length: 6 }, (_, i) => ({
  summary: `Finding ${i}: ${["pelican", "walrus", "heron", "otter", "lynx", "bison"][i]} renewals shifted in region ${i}`,
  why: `Quarter ${i} ${["forecast", "pipeline", "churn", "upsell", "refund", "backlog"][i]} depends on it`,
  content: `## Detail ${i}\nThe ${["alpha", "beta", "gamma", "delta", "epsilon", "zeta"][i]} cohort moved.`,
}));

async function addAll(ws: WorkspaceWithKey): Promise<string[]> {
  const ids: string[] = [];
  for (const finding of findings) ids.push(await validatedArtifact(t, ws.auth, finding));
  return ids;
}

async function deleteAll(ws: WorkspaceWithKey, ids: string[]): Promise<void> {
  for (const id of ids) await request(t.app).delete(`/admin/v1/workspaces/${ws.workspaceId}/artifacts/${id}`).set(adminAuth(t.adminToken)).expect(204);
}

describe("word counts", () => {
  it("keeps no row for the workspace once every artifact is deleted, and the same rows once they are added again", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    const neighbour = await createWorkspaceWithKey(t.services);
    await validatedArtifact(t, neighbour.auth, findings[0]);
    const neighbourCounts = await wordCounts(neighbour.workspaceId);

    const first = await addAll(ws);
    const counted = await wordCounts(ws.workspaceId);
    expect(counted.length).toBeGreaterThan(findings.length);
    expect(counted).toContain("artifacts  6");

    await deleteAll(ws, first);
    expect(await wordCounts(ws.workspaceId)).toEqual([]);
    expect(await wordCounts(neighbour.workspaceId)).toEqual(neighbourCounts);

    const again = await addAll(ws);
    expect(await wordCounts(ws.workspaceId)).toEqual(counted);
    await deleteAll(ws, again);
    expect(await wordCounts(ws.workspaceId)).toEqual([]);
  });

  it("removes a word's row when an update takes it out of its last document, and keeps the words other documents still hold", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    const kept = await validatedArtifact(t, ws.auth, { summary: "Zeppelin freight costs doubled" });
    const edited = await validatedArtifact(t, ws.auth, { summary: "Quokka freight costs halved" });
    expect([await countOf(ws.workspaceId, "quokka"), await countOf(ws.workspaceId, "freight")]).toEqual([1, 2]);

    // Any update of a searchable row is counted out as it was and in as it is.
    await t.database.executor.query(`UPDATE artifacts SET summary = 'Wombat shipping costs halved' WHERE workspace_id = $1 AND id = $2`, [ws.workspaceId, edited]);
    expect([await countOf(ws.workspaceId, "quokka"), await countOf(ws.workspaceId, "freight"), await countOf(ws.workspaceId, "wombat"), await countOf(ws.workspaceId, "")]).toEqual([undefined, 1, 1, 2]);
    const res = await request(t.app).get("/api/v1/artifacts?query=freight%20costs%20quokka").set(ws.auth).expect(200);
    expect(res.body.results.map((result: { id: string }) => result.id)).toContain(kept);
  });

  it("counts nothing for a draft, and deleting it changes no count", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    await validatedArtifact(t, ws.auth, { summary: "Narwhal renewals slipped" });
    const before = await wordCounts(ws.workspaceId);
    const draft = await pushArtifact(t, ws.auth, { summary: "Narwhal renewals recovered" });
    expect(await wordCounts(ws.workspaceId)).toEqual(before);
    await request(t.app).delete(`/admin/v1/workspaces/${ws.workspaceId}/artifacts/${draft}`).set(adminAuth(t.adminToken)).expect(204);
    expect(await wordCounts(ws.workspaceId)).toEqual(before);
  });
});
