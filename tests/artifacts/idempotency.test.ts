import request from "supertest";
import { minimalArtifact } from "../support/artifacts";
import { createKey, createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let ws: WorkspaceWithKey;
let now = new Date("2026-11-20T10:00:00Z");
beforeAll(async () => {
  t = await createTestApp({ clock: { now: () => now } });
  ws = await createWorkspaceWithKey(t.services);
});
afterAll(() => t.close());

const push = (key: string, body: object, auth = ws.auth) =>
  request(t.app).post("/api/v1/artifacts").set(auth).set("Idempotency-Key", key).send(body);
const countArtifacts = () => t.database.prisma.artifact.count({ where: { workspaceId: ws.workspaceId } });

describe("Idempotency-Key on POST /api/v1/artifacts", () => {
  it("returns the first response for the same key and body, and creates nothing more", async () => {
    const before = await countArtifacts();
    const first = await push("retry-1", minimalArtifact());
    const second = await push("retry-1", minimalArtifact());
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers["idempotent-replayed"]).toBe("true");
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    expect(await countArtifacts()).toBe(before + 1);
  });

  it("treats the same body with other key order and spacing as the same request", async () => {
    const first = await push("order-1", { summary: "s", why: "w", confidence: 0.5, confidenceExplanation: "c" });
    const second = await request(t.app)
      .post("/api/v1/artifacts")
      .set(ws.auth)
      .set("Idempotency-Key", "order-1")
      .type("json")
      .send(`{ "confidenceExplanation": "c", "confidence": 0.5,  "why": "w", "summary": "s" }`);
    expect(second.body.artifactId).toBe(first.body.artifactId);
  });

  it("answers 422 for the same key with a different body, and creates nothing", async () => {
    await push("reused", minimalArtifact());
    const before = await countArtifacts();
    const res = await push("reused", minimalArtifact({ summary: "Something else" }));
    expect(res.status).toBe(422);
    expect(res.body.error).toMatch(/Idempotency-Key was already used with a different request body/);
    expect(await countArtifacts()).toBe(before);
  });

  it("creates separate artifacts for different keys", async () => {
    const a = await push("key-a", minimalArtifact());
    const b = await push("key-b", minimalArtifact());
    expect(a.body.artifactId).not.toBe(b.body.artifactId);
  });

  it("keeps idempotency keys of different API keys apart", async () => {
    const other = await createKey(t.services, ws.workspaceId);
    const a = await push("shared-name", minimalArtifact());
    const b = await push("shared-name", minimalArtifact(), other.auth);
    expect(a.body.artifactId).not.toBe(b.body.artifactId);
  });

  it("forgets a key after 24 hours", async () => {
    const first = await push("day-old", minimalArtifact());
    now = new Date(now.getTime() + 24 * 60 * 60 * 1000 + 1000);
    const later = await push("day-old", minimalArtifact({ summary: "A new body is fine now" }));
    expect(later.status).toBe(201);
    expect(later.body.artifactId).not.toBe(first.body.artifactId);
  });

  it("creates exactly one artifact when the same key arrives many times at once", async () => {
    const before = await countArtifacts();
    const responses = await Promise.all(Array.from({ length: 10 }, () => push("burst", minimalArtifact())));
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(new Set(responses.map((r) => r.body.artifactId)).size).toBe(1);
    expect(await countArtifacts()).toBe(before + 1);
  });

  it("answers 400 for an Idempotency-Key longer than 255 characters", async () => {
    const res = await push("k".repeat(256), minimalArtifact());
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("header idempotency-key: must be at most 255 characters");
  });

  it("does not spend a key on a request that fails validation", async () => {
    const bad = await push("after-400", minimalArtifact({ confidence: 2 }));
    expect(bad.status).toBe(400);
    const good = await push("after-400", minimalArtifact());
    expect(good.status).toBe(201);
    expect(good.headers["idempotent-replayed"]).toBeUndefined();
  });
});
