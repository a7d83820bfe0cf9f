import request from "supertest";
import { minimalArtifact } from "../support/artifacts";
import { createWorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("concurrent pushes", () => {
  it("50 pushes at once give 50 distinct ids, all listed in feedback", async () => {
    const ws = await createWorkspaceWithKey(t.services);
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => request(t.app).post("/api/v1/artifacts").set(ws.auth).send(minimalArtifact({ summary: `push ${i}` }))),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(201));
    const pushed = new Set(responses.map((r) => r.body.artifactId as string));
    expect(pushed.size).toBe(50);

    const listed = await request(t.app).get("/api/v1/feedback?limit=100").set(ws.auth);
    expect(listed.body.nextCursor).toBeNull();
    expect(new Set(listed.body.items.map((item: { artifactId: string }) => item.artifactId))).toEqual(pushed);
  });
});
