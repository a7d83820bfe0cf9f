import request from "supertest";
import { pushArtifact, validatedArtifact } from "../support/artifacts";
import { createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";
import { importArtifacts } from "../../src/services/artifact-import";

let t: TestApp;
let ws: WorkspaceWithKey;
const corpus: Record<string, string> = {};

// A labelled set: each artifact, and a query that paraphrases it without sharing its key words.
const LABELLED = [
  {
    label: "churn",
    artifact: { summary: "Enterprise customer churn doubled in the third quarter", why: "Losing large accounts erodes recurring revenue" },
    query: "big business clients cancelling their subscriptions more often",
  },
  {
    label: "cac",
    artifact: { summary: "Paid search acquisition cost rose 40% after the bidding change", why: "Marketing spend efficiency is falling" },
    query: "advertising became more expensive per new signup",
  },
  {
    label: "apac",
    artifact: { summary: "APAC revenue grew 12% quarter over quarter, led by Japan", why: "Regional expansion is paying off" },
    query: "sales in Asia increased, mostly thanks to Tokyo",
  },
  {
    label: "support",
    artifact: { summary: "Median support ticket resolution time fell to 4 hours", why: "Faster help improves satisfaction" },
    query: "customer service answers problems quicker now",
  },
  {
    label: "inventory",
    artifact: { summary: "Warehouse stockouts of best-selling SKUs caused lost orders", why: "Out-of-stock products cost sales" },
    query: "popular items were unavailable so purchases failed",
  },
  {
    label: "onboarding",
    artifact: { summary: "Users who finish the onboarding checklist retain twice as well", why: "Activation predicts retention" },
    query: "completing the setup steps makes people stay longer",
  },
  {
    label: "pricing",
    artifact: { summary: "The annual plan discount increased upfront cash collection", why: "Cash flow matters for runway" },
    query: "cheaper yearly subscriptions brought money in earlier",
  },
  {
    label: "fraud",
    artifact: { summary: "Chargeback disputes spiked from cards issued abroad", why: "Payment fraud losses are growing" },
    query: "more contested payments coming from foreign credit cards",
  },
];

beforeAll(async () => {
  t = await createTestApp();
  ws = await createWorkspaceWithKey(t.services);
  for (const item of LABELLED) corpus[item.label] = await validatedArtifact(t, ws.auth, item.artifact);
  corpus.table = await validatedArtifact(t, ws.auth, {
    summary: "Revenue reconciliation gap",
    why: "Totals disagree with finance",
    keyFindings: ["fct_orders double counts refunds in the gross_margin column"],
  });
  await t.services.indexer.runOnce();
});
afterAll(() => t.close());

const search = (query: string, auth = ws.auth) =>
  request(t.app).get(`/api/v1/artifacts?query=${encodeURIComponent(query)}`).set(auth);
const resultIds = (res: request.Response) => res.body.results.map((r: { id: string }) => r.id);

describe("GET /api/v1/artifacts", () => {
  it.each(LABELLED.map((item) => [item.label, item.query]))("ranks the %s artifact in the top 3 for a paraphrase", async (label, query) => {
    const res = await search(query);
    expect(res.status).toBe(200);
    expect(resultIds(res).slice(0, 3)).toContain(corpus[label]);
  });

  it("finds an exact table name that embeddings blur", async () => {
    const res = await search("fct_orders");
    expect(resultIds(res)[0]).toBe(corpus.table);
  });

  it("answers ArtifactSummary items with a score in [0, 1], sorted best first", async () => {
    const res = await search("customers leaving");
    expect(res.body.results.length).toBeGreaterThan(0);
    const scores = res.body.results.map((r: { score: number }) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    for (const score of scores) {
      expect(score).toBeGreaterThanOrEqual(0);
      expect(score).toBeLessThanOrEqual(1);
    }
    expect(Object.keys(res.body.results[0]).sort()).toEqual(
      ["confidence", "createdAt", "dataSources", "id", "score", "summary", "validatedAt", "why"].sort(),
    );
  });

  it("includes keyFindings in a summary when the artifact has them", async () => {
    const res = await search("fct_orders");
    expect(res.body.results[0].keyFindings).toEqual(["fct_orders double counts refunds in the gross_margin column"]);
  });

  it("returns at most 10 results by default and at most limit", async () => {
    const many = await createWorkspaceWithKey(t.services);
    for (let i = 0; i < 12; i++) await validatedArtifact(t, many.auth, { summary: `Revenue by region, cut ${i}` });
    await t.services.indexer.runOnce();
    const byDefault = await search("revenue", many.auth);
    expect(byDefault.status).toBe(200);
    expect(byDefault.body.results).toHaveLength(10);
    const limited = await request(t.app).get("/api/v1/artifacts?query=revenue&limit=2").set(many.auth);
    expect(limited.status).toBe(200);
    expect(limited.body.results).toHaveLength(2);
  });

  it("never returns drafts", async () => {
    const draft = await pushArtifact(t, ws.auth, { summary: "Zanzibar expansion draft" });
    await t.services.indexer.runOnce();
    expect(resultIds(await search("Zanzibar expansion"))).not.toContain(draft);
  });

  it("never returns another workspace's artifacts", async () => {
    const other = await createWorkspaceWithKey(t.services);
    const foreign = await validatedArtifact(t, other.auth, { summary: "Enterprise customer churn doubled in the third quarter" });
    await t.services.indexer.runOnce();
    expect(resultIds(await search("enterprise churn"))).not.toContain(foreign);
    expect(resultIds(await search("enterprise churn", other.auth))).toEqual([foreign]);
  });

  it("finds validated internal (imported) artifacts", async () => {
    const [id] = await t.database.prisma.$transaction((tx) =>
      importArtifacts(tx, ws.workspaceId, [{ summary: "Kiosk footfall in Lisbon stores", why: "w", confidence: 1, confidenceExplanation: "c" }], new Date()),
    );
    await t.services.indexer.runOnce();
    expect(resultIds(await search("Lisbon kiosk footfall"))[0]).toBe(id);
  });

  it("answers an empty list when no validated artifact matches, though drafts do", async () => {
    const empty = await createWorkspaceWithKey(t.services);
    await pushArtifact(t, empty.auth, { summary: "Quokka census results" });
    await t.services.indexer.runOnce();
    const res = await search("Quokka census", empty.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ results: [] });
  });

  it.each([
    ["", "query parameter query: must not be empty"],
    ["&limit=0", "query parameter limit: must be an integer from 1 to 20"],
    ["&limit=21", "query parameter limit: must be an integer from 1 to 20"],
  ])("answers 400 for query=x%s", async (suffix, message) => {
    const res = await request(t.app).get(`/api/v1/artifacts?query=${suffix ? "x" + suffix : ""}`).set(ws.auth);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

  it("answers 400 without query", async () => {
    const res = await request(t.app).get("/api/v1/artifacts").set(ws.auth);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("query parameter query: is required");
  });
});
