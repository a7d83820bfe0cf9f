import request from "supertest";
import { MAX_VOCABULARY_PAIRS, vectorText, vocabularyPairs } from "../../src/search/workspace-vocabulary";
import { createWorkspaceWithKey, importContent, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const MTBF_DEFINITION = "MTBF means mean time between failures: rides between two maintenance tickets of one vehicle.";
const artifact = (summary: string) => ({ summary, why: "Fleet reliability", confidence: 0.7, confidenceExplanation: "Maintenance log" });

/** A workspace with the given definitions and artifacts; no vectors are made, so words alone decide. */
/** A data source with one table, its columns and what its annotation says it is used for. */
const fleetSource = (columns: string[], useCases: string[]) => ({
  name: "warehouse",
  connectorType: "postgres" as const,
  status: "connected" as const,
  schema: [{ tableName: "fleet_daily", columns: columns.map((columnName) => ({ columnName, dataType: "numeric" })) }],
  tableAnnotations: [{ tableName: "fleet_daily", description: "Daily fleet status per city, taken at 6am.", useCases, gotchas: [] }],
});

async function workspaceWith(document: {
  definitions?: Array<{ statement: string; active?: boolean }>;
  dataSources?: Array<ReturnType<typeof fleetSource>>;
  artifacts: string[];
}): Promise<WorkspaceWithKey> {
  const ws = await createWorkspaceWithKey(t.services);
  await importContent(t.services, ws.workspaceId, {
    memories: (document.definitions ?? []).map((definition) => ({ type: "definition" as const, ...definition })),
    dataSources: document.dataSources ?? [],
    artifacts: document.artifacts.map(artifact),
  });
  return ws;
}

async function search(ws: WorkspaceWithKey, query: string): Promise<Array<{ summary: string; score: number }>> {
  const res = await request(t.app).get("/api/v1/artifacts").query({ query }).set(ws.auth).expect(200);
  return res.body.results;
}

describe("the vocabulary a workspace defines", () => {
  it("reads acronyms and their names from definitions and parenthesised names", () => {
    expect(
      vocabularyPairs([
        MTBF_DEFINITION,
        "CAC is customer acquisition cost: marketing spend divided by first rides.",
        "PAYG riders are pay-as-you-go riders who hold no pass.",
        "Net revenue retention (NRR) is the revenue kept from last year's accounts.",
        "A commuter is a rider with at least 8 weekday rides starting before 9am in one month.",
        "A churned account has no active paid subscription and its last subscription ended 30 days ago.",
      ]),
    ).toEqual([
      { kind: "acronym", term: "MTBF", expansion: "mean time between failures" },
      { kind: "acronym", term: "CAC", expansion: "customer acquisition cost" },
      { kind: "acronym", term: "PAYG", expansion: "pay-as-you-go riders" },
      { kind: "acronym", term: "NRR", expansion: "Net revenue retention" },
      { kind: "definition", term: "commuter", expansion: "rider with at least 8 weekday rides starting" },
      { kind: "definition", term: "churned account", expansion: "no active paid subscription and its last subscription" },
    ]);
  });

  it("makes the query's vector from the query and the other name of each acronym it uses", () => {
    const entry = (term: string, expansion: string, kind: "acronym" | "definition" = "acronym") => ({ pair: { kind, term, expansion }, term: [], expansion: [], cover: 1 });
    const entries = [
      entry("MTBF", "mean time between failures"),
      entry("VOR", "vehicles off road"),
      entry("pass churn", "share of subscriptions cancelled", "definition"),
    ];
    expect(vectorText("MTBF by city", entries)).toBe("MTBF by city (mean time between failures)");
    expect(vectorText("should Mean Time Between  Failures be split by vehicle type", entries)).toBe(
      "should Mean Time Between  Failures be split by vehicle type (MTBF)",
    );
    expect(vectorText("mtbf, VOR", entries)).toBe("mtbf, VOR (mean time between failures; vehicles off road)");
    expect(vectorText("MTBF or mean time between failures", entries)).toBe("MTBF or mean time between failures");
    expect(vectorText("vortex of pass churn", entries)).toBe("vortex of pass churn");
  });

  it("reads a term defined after a colon (in a definition only) or by what it refers to", () => {
    expect(
      vocabularyPairs(
        [
          "Churn: customers leaving during the month, trials excluded.",
          "Activation is defined as a first completed ride within 7 days of sign-up.",
          "Dock health refers to the share of docks that lock and charge.",
        ],
        ["Every payment: passes, single rides and corporate invoices."],
      ),
    ).toEqual([
      { kind: "definition", term: "Churn", expansion: "customers leaving during the month, trials excluded" },
      { kind: "definition", term: "Activation", expansion: "first completed ride within 7 days of sign-up" },
      { kind: "definition", term: "Dock health", expansion: "share of docks that lock and charge" },
    ]);
  });

  it("reads at most MAX_VOCABULARY_PAIRS pairs, even from one text", () => {
    const text = Array.from({ length: 300 }, (_, i) => `alpha beta gamma (AB${i})`).join(" and ");
    expect(vocabularyPairs([text])).toHaveLength(MAX_VOCABULARY_PAIRS);
  });

  it("credits a defined term where it is used without its head noun", async () => {
    const ws = await workspaceWith({
      definitions: [{ statement: "A churned account has no active paid subscription and its last subscription ended 30 days ago." }],
      artifacts: ["Enterprise logo churn fell in Q2", "Scooter revenue grew"],
    });
    expect((await search(ws, "accounts with no active paid subscription")).map((result) => result.summary)).toEqual(["Enterprise logo churn fell in Q2"]);
  });

  it("finds the item named by a term a definition labels with a colon", async () => {
    const ws = await workspaceWith({
      definitions: [{ statement: "Churn: customers leaving during the month, trials excluded." }],
      artifacts: ["Enterprise logo churn fell in Q2", "Scooter revenue grew"],
    });
    // Two thirds of the definition's first 8 words (docs/search.md: 5 words helped the tuning half only).
    expect((await search(ws, "which customers left this month, excluding trials")).map((result) => result.summary)).toEqual(["Enterprise logo churn fell in Q2"]);
  });

  it("finds the item named by a defined term for a question phrased as its definition", async () => {
    const ws = await workspaceWith({
      definitions: [{ statement: "Pass churn is the share of subscriptions cancelled during a month among those active at its start." }],
      artifacts: ["Pass churn rose to 9% in Q3", "Scooter revenue grew"],
    });
    expect((await search(ws, "what share of subscriptions got cancelled last month")).map((result) => result.summary)).toEqual(["Pass churn rose to 9% in Q3"]);
  });

  it("finds an artifact that spells out the name of the acronym searched for", async () => {
    const ws = await workspaceWith({ definitions: [{ statement: MTBF_DEFINITION }], artifacts: ["Mean time between failures of e-bikes improved", "Scooter revenue grew"] });
    expect((await search(ws, "MTBF")).map((result) => result.summary)).toEqual(["Mean time between failures of e-bikes improved"]);
  });

  it("finds an artifact that uses only the acronym of the name searched for", async () => {
    const ws = await workspaceWith({ definitions: [{ statement: MTBF_DEFINITION }], artifacts: ["MTBF of scooters fell to 190 rides", "Scooter revenue grew"] });
    expect((await search(ws, "mean time between failures"))[0]?.summary).toBe("MTBF of scooters fell to 190 rides");
  });

  it("ignores an inactive definition", async () => {
    const ws = await workspaceWith({ definitions: [{ statement: MTBF_DEFINITION, active: false }], artifacts: ["Mean time between failures of e-bikes improved"] });
    expect(await search(ws, "MTBF")).toEqual([]);
  });

  it("never uses another workspace's vocabulary", async () => {
    await workspaceWith({ definitions: [{ statement: MTBF_DEFINITION }], artifacts: [] });
    const other = await workspaceWith({ artifacts: ["Mean time between failures of e-bikes improved"] });
    expect(await search(other, "MTBF")).toEqual([]);
  });

  it("ranks an artifact holding the searched word above one holding only its expansion", async () => {
    const ws = await workspaceWith({
      definitions: [{ statement: MTBF_DEFINITION }],
      artifacts: ["Mean time between failures of e-bikes improved", "MTBF of scooters fell to 190 rides"],
    });
    const results = await search(ws, "MTBF");
    expect(results.map((result) => result.summary)).toEqual(["MTBF of scooters fell to 190 rides", "Mean time between failures of e-bikes improved"]);
    expect(results[0]!.score).toBeGreaterThan(results[1]!.score);
  });
});
