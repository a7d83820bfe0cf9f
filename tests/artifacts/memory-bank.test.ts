import request from "supertest";
import { disputeArtifact, pushArtifact, validateArtifact } from "../support/artifacts";
import { createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let ws: WorkspaceWithKey;
beforeAll(async () => {
  t = await createTestApp();
  ws = await createWorkspaceWithKey(t.services);
});
afterAll(() => t.close());

const recalled = async (query: string) => {
  await t.services.indexer.runOnce();
  const res = await request(t.app).get("/api/v1/memories").query({ query }).set(ws.auth);
  expect(res.status).toBe(200);
  return res.body.hits.map((hit: { statement: string }) => hit.statement) as string[];
};

describe("pushed artifacts in the memory bank, through GET /api/v1/memories", () => {
  it("does not recall a draft's finding", async () => {
    await pushArtifact(t, ws.auth, { summary: "Kiwi subscriptions churned in Auckland" });
    expect(await recalled("kiwi subscriptions auckland")).not.toContain("Kiwi subscriptions churned in Auckland");
  });

  it("recalls the finding once the artifact is validated, as a finding", async () => {
    const id = await pushArtifact(t, ws.auth, { summary: "Walrus deliveries slowed in Oslo" });
    await validateArtifact(t, id);
    const res = await request(t.app).get("/api/v1/memories").query({ query: "walrus deliveries oslo" }).set(ws.auth);
    expect(res.body.hits[0]).toMatchObject({ type: "finding", statement: "Walrus deliveries slowed in Oslo" });
  });

  it("does not recall a disputed artifact's finding", async () => {
    const id = await pushArtifact(t, ws.auth, { summary: "Okapi renewals spiked in Nairobi" });
    await disputeArtifact(t, id);
    expect(await recalled("okapi renewals nairobi")).not.toContain("Okapi renewals spiked in Nairobi");
  });
});
