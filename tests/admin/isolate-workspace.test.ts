import request from "supertest";
import { COMMANDS, UsageError } from "../../src/cli/admin-commands";
import { adminAuth, createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

// POST /admin/v1/workspaces/{id}/isolate: on a Citus cluster (the Citus pass) a workspace gets a
// shard of its own on the worker named, stays in use, and a later rebalance would leave it there
// and give it the node alone; elsewhere there is nothing to isolate, and the answer says so.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const admin = () => adminAuth(t.adminToken);
const isolate = (workspaceId: string, body: unknown) => request(t.app).post(`/admin/v1/workspaces/${workspaceId}/isolate`).set(admin()).send(body as object);
const citus = Boolean(process.env.WSI_TEST_CITUS);

describe("POST /admin/v1/workspaces/{id}/isolate", () => {
  it("refuses what it cannot use: an unknown workspace 404, a node that is not host:port 400", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    expect((await isolate("ws_nope", {})).status).toBe(404);
    const res = await isolate(ws.workspaceId, { node: "no port" });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/node/);
    expect((await isolate(ws.workspaceId, { node: 5432 })).status).toBe(400);
  });

  (citus ? it.skip : it)("answers 409 on a database that is not a Citus cluster, to the CLI's command too", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    const res = await isolate(ws.workspaceId, {});
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/not a Citus cluster/);
    // `npm run admin -- workspace:isolate` sends the same request.
    expect(() => COMMANDS["workspace:isolate"]!({ node: "10.0.0.3:5432" })).toThrow(new UsageError("--workspace is required"));
    const built = COMMANDS["workspace:isolate"]!({ workspace: ws.workspaceId, node: "10.0.0.3:5432" });
    expect(built).toMatchObject({ method: "POST", path: `/admin/v1/workspaces/${ws.workspaceId}/isolate`, body: { node: "10.0.0.3:5432" } });
    expect((await isolate(ws.workspaceId, built.body)).status).toBe(409);
    // The body is a JSON object, `{}` to keep the node: without one the answer says so.
    const bare = await request(t.app).post(`/admin/v1/workspaces/${ws.workspaceId}/isolate`).set(admin());
    expect(bare.status).toBe(400);
    expect(bare.body.error).toMatch(/body: is required/);
  });

  (citus ? it : it.skip)("moves a workspace in use to a shard and node of its own, which a rebalance leaves alone", async () => {
    let pushedMeanwhile = 0;
    const [big, other] = [await createWorkspaceWithKey(t.services), await createWorkspaceWithKey(t.services)] as WorkspaceWithKey[];
    const push = (ws: WorkspaceWithKey, summary: string) =>
      request(t.app).post("/api/v1/artifacts").set(ws.auth).send({ summary, why: "w", confidence: 0.5, confidenceExplanation: "e" }).expect(201);
    const pushed = await Promise.all(["Churn rose in the north region", "Revenue per seat fell", "Trial conversion doubled"].map((summary) => push(big!, summary)));
    await request(t.app).post(`/admin/v1/workspaces/${big!.workspaceId}/artifacts/${pushed[0]!.body.artifactId}/validate`).set(admin()).send({ by: "ana@acme.example" }).expect(200);
    await push(other!, "Other workspace's draft");

    const nodeOf = async (workspaceId: string) =>
      (
        await t.database.executor.query<{ node: string; alone: boolean; shard: string }>(
          `SELECT n.nodename || ':' || n.nodeport AS node, s.shardminvalue = s.shardmaxvalue AS alone, s.shardid::text AS shard
           FROM pg_dist_shard s JOIN pg_dist_placement p USING (shardid) JOIN pg_dist_node n ON n.groupid = p.groupid
           WHERE s.shardid = get_shard_id_for_distribution_column('workspaces', $1::text)`,
          [workspaceId],
        )
      )[0]!;
    const workers = (await t.database.executor.query<{ node: string }>(`SELECT nodename || ':' || nodeport AS node FROM pg_dist_node WHERE groupid > 0 ORDER BY nodeid`)).map((row) => row.node);
    const before = await nodeOf(big!.workspaceId);
    const target = workers.find((node) => node !== before.node)!;

    // A node the cluster does not have is named in the answer with those it has.
    const unknown = await isolate(big!.workspaceId, { node: "10.255.255.1:5432" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toContain(target);

    // The workspace and another are read and written while it moves.
    let moving = true;
    const meanwhile = (async () => {
      const statuses: number[] = [];
      for (let i = 0; moving; i++) {
        for (const ws of [big!, other!]) {
          statuses.push((await request(t.app).get("/api/v1/briefing").set(ws.auth)).status);
          const pushed = await request(t.app).post("/api/v1/artifacts").set(ws.auth).send({ summary: `Meanwhile ${i}`, why: "w", confidence: 0.5, confidenceExplanation: "e" });
          statuses.push(pushed.status === 201 ? 200 : pushed.status);
          if (ws === big && pushed.status === 201) pushedMeanwhile++;
        }
      }
      return statuses;
    })();
    const res = await isolate(big!.workspaceId, { node: target });
    moving = false;
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ workspaceId: big!.workspaceId, node: target, isolated: true, alreadyIsolated: false, moved: true });
    expect((await meanwhile).filter((status) => status !== 200)).toEqual([]);

    const after = await nodeOf(big!.workspaceId);
    expect(after).toMatchObject({ node: target, alone: true, shard: res.body.shardId });
    expect((await nodeOf(other!.workspaceId)).alone).toBe(false);

    // Everything of it came along and it is served where it is.
    const listed = await request(t.app).get("/api/v1/artifacts?query=churn%20north%20region").set(big!.auth).expect(200);
    expect(listed.body.results.map((item: { id: string }) => item.id)).toContain(pushed[0]!.body.artifactId);
    await push(big!, "Pushed after the move");
    const drafts = await t.database.executor.query<{ n: number }>(`SELECT count(*)::int AS n FROM artifacts WHERE workspace_id = $1`, [big!.workspaceId]);
    expect(drafts[0]!.n).toBe(4 + pushedMeanwhile);

    // Again: nothing to split or move.
    const again = await isolate(big!.workspaceId, { node: target });
    expect(again.body).toMatchObject({ alreadyIsolated: true, moved: false, node: target });

    // A later rebalance leaves it there and moves the others' shards off its node.
    const plan = await t.database.executor.query<{ shardid: string; sourcename: string; sourceport: number; targetname: string; targetport: number }>(
      `SELECT shardid::text AS shardid, sourcename, sourceport, targetname, targetport FROM get_rebalance_table_shards_plan()`,
    );
    expect(plan.map((move) => move.shardid)).not.toContain(res.body.shardId);
    expect(plan.filter((move) => `${move.targetname}:${move.targetport}` === target)).toEqual([]);
    expect(plan.some((move) => `${move.sourcename}:${move.sourceport}` === target)).toBe(true);
  });
});
