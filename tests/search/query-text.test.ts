import request from "supertest";
import { QUERY_WORK, searchedWords } from "../../src/search/query-text";
import { distinctWords } from "../support/distinct-words";
import { createWorkspaceWithKey, importContent, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

const words = (count: number) => distinctWords(count).split(" ");

describe("the words a search reads", () => {
  it("keeps a query of up to QUERY_WORK.words words whole", () => {
    const query = words(QUERY_WORK.words).join(" ") + "?";
    expect(searchedWords(query)).toBe(query);
  });

  it("ends after the QUERY_WORK.words-th word", () => {
    const all = words(QUERY_WORK.words + 10);
    expect(searchedWords(all.join(" "))).toBe(all.slice(0, QUERY_WORK.words).join(" "));
  });

  it("counts each part of an identifier as a word, as the statements search each part", () => {
    const identifier = words(QUERY_WORK.words + 10).join("_");
    expect(searchedWords(`rows of ${identifier}`)).toBe(`rows of ${words(QUERY_WORK.words - 2).join("_")}`);
  });

  it("reads at most QUERY_WORK.chars characters of a text with few words", () => {
    const text = `${"-".repeat(5_000)} churn`;
    expect(searchedWords(text)).toHaveLength(QUERY_WORK.chars);
  });
});

describe("a search with more words than it reads", () => {
  let t: TestApp;
  let ws: WorkspaceWithKey;

  beforeAll(async () => {
    t = await createTestApp();
    ws = await createWorkspaceWithKey(t.services);
    await importContent(t.services, ws.workspaceId, {
      memories: [
        { type: "rule", statement: "Walrus sightings are logged per beach." },
        { type: "rule", statement: "Zebra crossings are counted per district." },
      ],
    });
    await t.services.indexer.runOnce();
  });
  afterAll(() => t.close());

  it("matches its last word read, and no word past it", async () => {
    // Stop words: words the search reads, none of which a memory could match.
    const filler = Array.from({ length: QUERY_WORK.words - 1 }, () => "the").join(" ");
    const res = await request(t.app).get("/api/v1/memories").query({ query: `${filler} walrus zebra` }).set(ws.auth).expect(200);
    const contexts = res.body.hits.map((hit: { statement: string; context?: string }) => [hit.statement, hit.context]);
    expect(contexts).toContainEqual(["Walrus sightings are logged per beach.", "matched: walrus"]);
    expect(contexts.filter(([, context]: [string, string | undefined]) => context?.includes("zebra"))).toEqual([]);
  });
});
