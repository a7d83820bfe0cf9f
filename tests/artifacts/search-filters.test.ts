import request from "supertest";
import { disputeArtifact, pushArtifact, validatedArtifact } from "../support/artifacts";
import { createWorkspaceWithKey, importContent, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let ws: WorkspaceWithKey;
let other: WorkspaceWithKey;
const ids: Record<string, string> = {};

const T0 = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;
const QUERY = "customer churn";

const churnArtifact = <F extends object>(summary: string, confidence: number, fields: F) => ({
  summary,
  why: "Churn drives net revenue retention",
  confidence,
  confidenceExplanation: "Subscription data",
  ...fields,
});

beforeAll(async () => {
  t = await createTestApp();
  ws = await createWorkspaceWithKey(t.services);
  other = await createWorkspaceWithKey(t.services);
  const { artifactIds } = await importContent(t.services, ws.workspaceId, {
    artifacts: [
      churnArtifact("Enterprise customer churn doubled in Q3", 0.9, {
        createdAt: T0, validatedAt: T0 + DAY, dataSources: [{ type: "database", name: "warehouse" }],
      }),
      churnArtifact("Self-serve customer churn fell after the onboarding change", 0.6, {
        createdAt: T0 + 10 * DAY, validatedAt: T0 + 20 * DAY, dataSources: [{ type: "database", name: "crm" }],
      }),
      churnArtifact("Customer churn in EMEA is concentrated in annual plans", 0.75, {
        createdAt: T0 + 20 * DAY, validatedAt: T0 + 21 * DAY,
        dataSources: [{ type: "database", name: "warehouse" }, { type: "file", name: "churn_export.csv", id: "f-1" }],
      }),
      churnArtifact("Churned customers cite pricing in exit surveys", 0.5, {
        createdAt: T0 + 30 * DAY, validatedAt: T0 + 40 * DAY, dataSources: [{ type: "external", name: "Survey Tool" }],
      }),
      churnArtifact("Customer churn forecast for next quarter", 0.8, { createdAt: T0 + 40 * DAY, validatedAt: T0 + 41 * DAY }),
      churnArtifact("Customer churn draft imported on warehouse data", 0.95, {
        status: "draft" as const, createdAt: T0 + 15 * DAY, dataSources: [{ type: "database", name: "warehouse" }],
      }),
    ],
  });
  for (const [i, label] of ["q3", "selfServe", "emea", "survey", "forecast", "importedDraft"].entries()) ids[label] = artifactIds[i]!;
  const warehouse = [{ type: "database", name: "warehouse" }];
  ids.draft = await pushArtifact(t, ws.auth, { summary: "Customer churn draft on warehouse data", confidence: 0.95, dataSources: warehouse });
  ids.disputed = await pushArtifact(t, ws.auth, { summary: "Customer churn disputed on warehouse data", confidence: 0.95, dataSources: warehouse });
  await disputeArtifact(t, ids.disputed);
  ids.foreign = await validatedArtifact(t, other.auth, {
    summary: "Customer churn in the other workspace",
    confidence: 0.99,
    dataSources: [{ type: "database", name: "secret-ledger" }, { type: "database", name: "warehouse" }],
  });
  await t.services.indexer.runOnce();
});
afterAll(() => t.close());

const VALIDATED = ["q3", "selfServe", "emea", "survey", "forecast"] as const;

function search(params: Record<string, string | number>, auth = ws.auth) {
  return request(t.app).get("/api/v1/artifacts").query({ query: QUERY, limit: 20, ...params }).set(auth);
}

/** The labels of the artifacts a search returned, sorted, so that a set reads as one. */
async function found(params: Record<string, string | number>, auth = ws.auth): Promise<string[]> {
  const res = await search(params, auth);
  expect(res.status).toBe(200);
  const label = new Map(Object.entries(ids).map(([name, id]) => [id, name]));
  return res.body.results.map((result: { id: string }) => label.get(result.id) ?? result.id).sort();
}

const sorted = (labels: readonly string[]) => [...labels].sort();

describe("GET /api/v1/artifacts without filters", () => {
  it("finds every validated artifact of the workspace for the query, and nothing else", async () => {
    expect(await found({})).toEqual(sorted(VALIDATED));
  });
});

describe("GET /api/v1/artifacts with time filters", () => {
  it("keeps artifacts created at or after createdAfter, the bound included", async () => {
    expect(await found({ createdAfter: T0 + 10 * DAY })).toEqual(sorted(["selfServe", "emea", "survey", "forecast"]));
  });

  it("keeps artifacts created at or before createdBefore, the bound included", async () => {
    expect(await found({ createdBefore: T0 + 20 * DAY })).toEqual(sorted(["q3", "selfServe", "emea"]));
  });

  it("keeps the artifact created at the very millisecond when both created bounds are equal", async () => {
    expect(await found({ createdAfter: T0 + 20 * DAY, createdBefore: T0 + 20 * DAY })).toEqual(["emea"]);
    expect(await found({ createdAfter: T0 + 20 * DAY + 1, createdBefore: T0 + 30 * DAY - 1 })).toEqual([]);
  });

  it("keeps artifacts validated at or after validatedAfter, and at or before validatedBefore", async () => {
    expect(await found({ validatedAfter: T0 + 21 * DAY })).toEqual(sorted(["emea", "survey", "forecast"]));
    expect(await found({ validatedBefore: T0 + 20 * DAY })).toEqual(sorted(["q3", "selfServe"]));
  });

  it("reads the bounds on createdAt and validatedAt as the results show them, in milliseconds since the epoch", async () => {
    const res = await search({ createdAfter: T0 + 40 * DAY });
    expect(res.body.results).toEqual([expect.objectContaining({ id: ids.forecast, createdAt: T0 + 40 * DAY, validatedAt: T0 + 41 * DAY })]);
  });
});

describe("GET /api/v1/artifacts with dataSource", () => {
  it("keeps artifacts one of whose dataSources has that name, whatever its type", async () => {
    expect(await found({ dataSource: "warehouse" })).toEqual(sorted(["q3", "emea"]));
    expect(await found({ dataSource: "churn_export.csv" })).toEqual(["emea"]);
    expect(await found({ dataSource: "Survey Tool" })).toEqual(["survey"]);
  });

  it("matches the name exactly: case and spaces count", async () => {
    expect(await found({ dataSource: "Warehouse" })).toEqual([]);
    expect(await found({ dataSource: "Survey" })).toEqual([]);
    expect(await found({ dataSource: " warehouse" })).toEqual([]);
  });

  it("answers 200 with no results for a well-formed name no artifact cites", async () => {
    const res = await search({ dataSource: "nowhere" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ results: [] });
  });

  it("never reveals another workspace's data source or artifacts", async () => {
    expect((await search({ dataSource: "secret-ledger" })).body).toEqual({ results: [] });
    expect(await found({ dataSource: "secret-ledger" }, other.auth)).toEqual(["foreign"]);
    expect(await found({ dataSource: "warehouse", minConfidence: 0.95 })).toEqual([]);
  });
});

describe("GET /api/v1/artifacts with minConfidence", () => {
  it("keeps artifacts whose confidence is at least minConfidence, the bound included", async () => {
    expect(await found({ minConfidence: 0.75 })).toEqual(sorted(["q3", "emea", "forecast"]));
    expect(await found({ minConfidence: "0.9" })).toEqual(["q3"]);
    expect(await found({ minConfidence: 0 })).toEqual(sorted(VALIDATED));
    expect(await found({ minConfidence: 1 })).toEqual([]);
  });
});

describe("GET /api/v1/artifacts with several filters", () => {
  it("keeps only artifacts that meet all of them", async () => {
    expect(await found({ dataSource: "warehouse", minConfidence: 0.8 })).toEqual(["q3"]);
    expect(await found({ createdAfter: T0 + 5 * DAY, createdBefore: T0 + 35 * DAY, minConfidence: 0.55 })).toEqual(sorted(["selfServe", "emea"]));
    expect(await found({ createdAfter: T0, validatedBefore: T0 + 21 * DAY, dataSource: "warehouse", minConfidence: 0.5 })).toEqual(sorted(["q3", "emea"]));
  });

  it("never returns drafts or disputed artifacts, however well they match", async () => {
    // The draft and the disputed artifact cite warehouse at 0.95; the imported draft was created in range.
    expect(await found({ dataSource: "warehouse", minConfidence: 0.5, createdAfter: 0 })).toEqual(sorted(["q3", "emea"]));
    expect(await found({ createdAfter: T0 + 15 * DAY, createdBefore: T0 + 15 * DAY })).toEqual([]);
  });

  it("scores each artifact as the unfiltered search does: a filter narrows, it does not re-rank", async () => {
    const all = new Map<string, number>((await search({})).body.results.map((r: { id: string; score: number }) => [r.id, r.score]));
    const filtered = (await search({ dataSource: "warehouse", createdBefore: T0 + 30 * DAY })).body.results as Array<{ id: string; score: number }>;
    expect(filtered.length).toBe(2);
    for (const result of filtered) expect(result.score).toBe(all.get(result.id));
    const unfilteredOrder = [...all.keys()].filter((id) => filtered.some((result) => result.id === id));
    expect(filtered.map((result) => result.id)).toEqual(unfilteredOrder);
  });
});

describe("GET /api/v1/artifacts: limit with a filter", () => {
  let many: WorkspaceWithKey;
  const crm: string[] = [];

  beforeAll(async () => {
    many = await createWorkspaceWithKey(t.services);
    // Strong matches for the query citing the warehouse (its words in the headline), weaker ones
    // citing the CRM (the words in `why` only): the CRM's rank below every warehouse artifact, so
    // ranking first and filtering after would find none of them.
    const { artifactIds } = await importContent(t.services, many.workspaceId, {
      artifacts: [
        ...Array.from({ length: 24 }, (_, i) => ({
          summary: `Revenue by region for quarter ${i + 1}`,
          why: "Revenue by region shows where growth comes from",
          confidence: 0.8,
          confidenceExplanation: "Booked revenue",
          dataSources: [{ type: "database" as const, name: "warehouse" }],
        })),
        ...Array.from({ length: 5 }, (_, i) => ({
          summary: `Deal notes ${i + 1} from the sales team`,
          why: "Revenue by region from the deals the team closed",
          confidence: 0.7,
          confidenceExplanation: "Pipeline export",
          dataSources: [{ type: "database" as const, name: "crm" }],
        })),
      ],
    });
    crm.push(...artifactIds.slice(24));
    await t.services.indexer.runOnce();
  });

  const searchMany = (params: Record<string, string | number>) =>
    request(t.app).get("/api/v1/artifacts").query({ query: "revenue by region", ...params }).set(many.auth).expect(200);

  it("ranks the matching artifacts below `limit` unfiltered, so a filter applied after ranking would leave none", async () => {
    const { body } = await searchMany({ limit: 20 });
    expect(body.results).toHaveLength(20);
    expect(body.results.filter((r: { id: string }) => crm.includes(r.id))).toEqual([]);
  });

  it("returns `limit` matching artifacts when at least that many match", async () => {
    const { body } = await searchMany({ limit: 3, dataSource: "crm" });
    expect(body.results).toHaveLength(3);
    for (const result of body.results) expect(crm).toContain(result.id);
  });

  it("returns every matching artifact when fewer than `limit` match, best first", async () => {
    const all = (await searchMany({ limit: 20, dataSource: "crm" })).body.results as Array<{ id: string; score: number }>;
    expect(all.map((r) => r.id).sort()).toEqual([...crm].sort());
    const scores = all.map((r) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    const top = (await searchMany({ limit: 3, dataSource: "crm" })).body.results as Array<{ id: string }>;
    expect(top.map((r) => r.id)).toEqual(all.slice(0, 3).map((r) => r.id));
  });

  it("returns at most 10 matching artifacts by default", async () => {
    const { body } = await searchMany({ dataSource: "warehouse" });
    expect(body.results).toHaveLength(10);
  });
});

describe("GET /api/v1/artifacts: invalid filters", () => {
  it.each([
    ["createdAfter", "abc"],
    ["createdAfter", "2026-01-01T00:00:00Z"],
    ["createdAfter", "1767225600000.5"],
    ["createdAfter", ""],
    ["createdBefore", "99999999999999999"],
    ["validatedAfter", "-99999999999999999"],
    ["validatedBefore", "1e12"],
    ["dataSource", ""],
    ["dataSource", "x".repeat(501)],
    ["minConfidence", "1.5"],
    ["minConfidence", "-0.1"],
    ["minConfidence", "abc"],
    ["minConfidence", ""],
    ["minConfidence", "NaN"],
    ["minConfidence", "Infinity"],
  ])("answers 400 naming %s for %j", async (name, value) => {
    const res = await search({ [name]: value });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("bad_request");
    expect(res.body.error).toMatch(new RegExp(`^query parameter ${name}: `));
  });

  it.each([
    ["createdAfter", "createdBefore"],
    ["validatedAfter", "validatedBefore"],
  ])("answers 400 naming %s when it is later than %s", async (after, before) => {
    const res = await search({ [after]: T0 + 1, [before]: T0 });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(new RegExp(`^query parameter ${after}: must not be later than ${before}`));
  });

  it.each([
    ["createdAfter", `createdAfter=${T0}&createdAfter=${T0 + DAY}`],
    ["dataSource", "dataSource=warehouse&dataSource=crm"],
    ["minConfidence", "minConfidence[]=0.5"],
    ["validatedBefore", `validatedBefore[gte]=${T0}`],
  ])("answers 400 naming %s when it is repeated or bracketed", async (name, text) => {
    const res = await request(t.app).get(`/api/v1/artifacts?query=churn&${text}`).set(ws.auth);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(new RegExp(`^query parameter ${name}: must be`));
  });

  it("answers 400, not 500, for a data source name holding a NUL character", async () => {
    const res = await search({ dataSource: "ware\u0000house" });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^query parameter dataSource: /);
  });
});
