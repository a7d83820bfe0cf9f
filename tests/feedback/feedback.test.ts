import request from "supertest";
import { disputeArtifact, pushArtifact, validateArtifact } from "../support/artifacts";
import { createKey, createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";
import { importArtifacts } from "../../src/services/artifact-import";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const feedback = (auth: { Authorization: string }, query = "") => request(t.app).get(`/api/v1/feedback${query}`).set(auth);
const ids = (res: request.Response) => res.body.items.map((item: { artifactId: string }) => item.artifactId);

async function walk(auth: { Authorization: string }, query: string, onPage?: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const res: request.Response = await feedback(auth, `${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(res.status).toBe(200);
    seen.push(...ids(res));
    cursor = res.body.nextCursor;
    await onPage?.();
  } while (cursor);
  return seen;
}

describe("GET /api/v1/feedback", () => {
  it("lists the calling key's pushes newest first as FeedbackItem", async () => {
    const ws = await createWorkspaceWithKey(t.services, { keyName: "forecast-bot" });
    const first = await pushArtifact(t, ws.auth, { summary: "first", confidence: 0.4 });
    const second = await pushArtifact(t, ws.auth, { summary: "second" });
    const res = await feedback(ws.auth);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([second, first]);
    expect(res.body.items[1]).toEqual({
      artifactId: first,
      summary: "first",
      status: "draft",
      confidence: 0.4,
      createdBy: "forecast-bot",
      createdAt: expect.any(Number),
    });
    expect(res.body.nextCursor).toBeNull();
  });

  it("reports validation with validatedAt and validatedBy", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    const id = await pushArtifact(t, ws.auth);
    await validateArtifact(t, id, "ana@acme.test");
    const [item] = (await feedback(ws.auth)).body.items;
    expect(item).toMatchObject({ artifactId: id, status: "validated", validatedBy: "ana@acme.test", validatedAt: expect.any(Number) });
    expect(item).not.toHaveProperty("disputeReason");
  });

  it("reports a dispute with its reason", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    const id = await pushArtifact(t, ws.auth);
    await disputeArtifact(t, id, "Includes internal test accounts");
    const [item] = (await feedback(ws.auth)).body.items;
    expect(item).toMatchObject({ artifactId: id, status: "disputed", disputeReason: "Includes internal test accounts" });
    expect(item).not.toHaveProperty("validatedAt");
  });

  it("shows only the calling key's pushes by default, and the workspace's with audience=workspace", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    const colleague = await createKey(t.services, ws.workspaceId, { keyName: "colleague" });
    const mine = await pushArtifact(t, ws.auth);
    const theirs = await pushArtifact(t, colleague.auth);
    expect(ids(await feedback(ws.auth))).toEqual([mine]);
    expect(ids(await feedback(ws.auth, "?audience=mine"))).toEqual([mine]);
    expect(ids(await feedback(ws.auth, "?audience=workspace"))).toEqual([theirs, mine]);
  });

  it("filters by status", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    const a = await pushArtifact(t, ws.auth);
    const b = await pushArtifact(t, ws.auth);
    await validateArtifact(t, a);
    expect(ids(await feedback(ws.auth, "?status=validated"))).toEqual([a]);
    expect(ids(await feedback(ws.auth, "?status=draft"))).toEqual([b]);
    expect(ids(await feedback(ws.auth, "?status=disputed"))).toEqual([]);
  });

  it("leaves out internal (imported) artifacts", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    await t.database.prisma.$transaction((tx) =>
      importArtifacts(tx, ws.workspaceId, [{ summary: "internal", why: "w", confidence: 1, confidenceExplanation: "c" }], new Date()),
    );
    expect(ids(await feedback(ws.auth, "?audience=workspace"))).toEqual([]);
  });

  it("never shows another workspace's pushes", async () => {
    const a = await createWorkspaceWithKey(t.services);
    const b = await createWorkspaceWithKey(t.services);
    await pushArtifact(t, b.auth);
    expect(ids(await feedback(a.auth, "?audience=workspace"))).toEqual([]);
  });

  it("pages with limit and nextCursor to the end, without duplicates or gaps", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    const pushed: string[] = [];
    for (let i = 0; i < 7; i++) pushed.push(await pushArtifact(t, ws.auth, { summary: `n${i}` }));
    const first = await feedback(ws.auth, "?limit=3");
    expect(first.body.items).toHaveLength(3);
    expect(typeof first.body.nextCursor).toBe("string");
    expect(await walk(ws.auth, "?limit=3")).toEqual([...pushed].reverse());
  });

  it("answers nextCursor null on a last page that is exactly full", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    for (let i = 0; i < 4; i++) await pushArtifact(t, ws.auth);
    const page = await feedback(ws.auth, "?limit=2");
    const last = await feedback(ws.auth, `?limit=2&cursor=${encodeURIComponent(page.body.nextCursor)}`);
    expect(last.body.items).toHaveLength(2);
    expect(last.body.nextCursor).toBeNull();
  });

  it("stays stable while new pushes arrive during the walk: every original item once, none lost", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    const original: string[] = [];
    for (let i = 0; i < 12; i++) original.push(await pushArtifact(t, ws.auth, { summary: `orig ${i}` }));
    const arrived: string[] = [];
    const seen = await walk(ws.auth, "?limit=5", async () => {
      arrived.push(await pushArtifact(t, ws.auth, { summary: "during walk" }));
    });
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual([...original].reverse());
    const all = await walk(ws.auth, "?limit=100");
    expect(all).toEqual([...arrived.reverse(), ...[...original].reverse()]);
  });

  it("defaults limit to 20", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    for (let i = 0; i < 21; i++) await pushArtifact(t, ws.auth);
    const res = await feedback(ws.auth);
    expect(res.body.items).toHaveLength(20);
    expect(res.body.nextCursor).not.toBeNull();
  });

  it.each([
    ["?limit=0", "query parameter limit: must be an integer from 1 to 100"],
    ["?limit=101", "query parameter limit: must be an integer from 1 to 100"],
    ["?limit=1.5", "query parameter limit: must be an integer from 1 to 100"],
    ["?status=pending", "query parameter status: must be one of: draft, validated, disputed"],
    ["?audience=everyone", "query parameter audience: must be one of: mine, workspace"],
    ["?cursor=not-a-cursor", "query parameter cursor: is not a cursor issued by GET /api/v1/feedback"],
    ["?cursor=", "query parameter cursor: must not be empty"],
  ])("answers 400 for %s", async (query, message) => {
    const ws = await createWorkspaceWithKey(t.services);
    const res = await feedback(ws.auth, query);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

  it("answers 400 for a cursor issued to another key", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    const other = await createKey(t.services, ws.workspaceId);
    for (let i = 0; i < 3; i++) await pushArtifact(t, ws.auth);
    const page = await feedback(ws.auth, "?limit=1");
    const res = await feedback(other.auth, `?limit=1&cursor=${encodeURIComponent(page.body.nextCursor)}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/issued for another API key or other filters/);
  });

  it("answers 400 for a cursor used with other filters", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    for (let i = 0; i < 3; i++) await pushArtifact(t, ws.auth);
    const page = await feedback(ws.auth, "?limit=1");
    const res = await feedback(ws.auth, `?limit=1&status=draft&cursor=${encodeURIComponent(page.body.nextCursor)}`);
    expect(res.status).toBe(400);
  });
});
