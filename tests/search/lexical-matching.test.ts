import request from "supertest";
import { validatedArtifact } from "../support/artifacts";
import { createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let ws: WorkspaceWithKey;
const ids: Record<string, string> = {};

const search = async (query: string) => {
  const res = await request(t.app).get("/api/v1/artifacts").query({ query }).set(ws.auth).expect(200);
  return res.body.results.map((r: { id: string }) => r.id) as string[];
};

beforeAll(async () => {
  t = await createTestApp();
  ws = await createWorkspaceWithKey(t.services);
  ids.incident = await validatedArtifact(t, ws.auth, { summary: "Incident TW-1120 stopped payments for an hour", why: "Outage" });
  ids.ratio = await validatedArtifact(t, ws.auth, { summary: "DAU/MAU reached 0.31 in September", why: "Stickiness" });
  ids.table = await validatedArtifact(t, ws.auth, { summary: "fct_orders double-counts split shipments", why: "Data quality" });
  ids.body = await validatedArtifact(t, ws.auth, {
    summary: "Quarterly review of the fleet",
    why: "Board pack",
    content: {
      root: "r",
      elements: {
        r: { type: "Section", props: {}, children: ["m", "c"] },
        m: { type: "Markdown", props: { content: "The carburettor recall affected forty vans." } },
        c: { type: "ChartImage", props: { src: "https://files.example/zanzibar.png", caption: "Vans by depot" } },
      },
    },
  });
  // No vectors: the text half alone must find these.
});
afterAll(() => t.close());

describe("full-text matching of identifiers and bodies", () => {
  it("matches a ticket id whole and by its number", async () => {
    expect((await search("TW-1120"))[0]).toBe(ids.incident);
    expect((await search("1120"))[0]).toBe(ids.incident);
  });

  it("matches a slash-joined metric name whole and by each part", async () => {
    expect((await search("DAU/MAU"))[0]).toBe(ids.ratio);
    expect((await search("MAU"))[0]).toBe(ids.ratio);
  });

  it("matches an underscore table name whole before artifacts that share only a part", async () => {
    expect((await search("fct_orders"))[0]).toBe(ids.table);
  });

  it("finds an artifact by a word that appears only in its element-tree body", async () => {
    expect(await search("carburettor")).toEqual([ids.body]);
  });

  it("does not match the address of an image in the body", async () => {
    expect(await search("zanzibar")).toEqual([]);
  });

  it("returns nothing for a query about nothing in the workspace", async () => {
    await t.services.indexer.runOnce();
    expect(await search("zebra giraffe elephant")).toEqual([]);
  });
});
