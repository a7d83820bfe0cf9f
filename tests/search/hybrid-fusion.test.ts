import { FUSION, knowsNoWord, lexicalScore, rankCandidates, type LexemeStats } from "../../src/search/hybrid-fusion";
import { HELD } from "../../src/search/workspace-vocabulary";

const stats: LexemeStats = { documents: 10, documentFrequency: { churn: 3 }, queryLexemes: ["churn"] };
/** A candidate holding the one query word in its headline, at this similarity (below where meaning starts to count). */
const holdingChurn = (id: string, similarity: number | null) => ({ id, similarity, matchedLexemes: ["churn"], matchedWeights: ["A"] });

describe("the ranking of equal scores", () => {
  it("puts the nearer by raw similarity first when meaning adds nothing to either score", () => {
    const below = FUSION.similarityZero;
    const ranked = rankCandidates([holdingChurn("a", below - 0.2), holdingChurn("b", below - 0.05), holdingChurn("c", null)], stats, 10);
    expect(ranked.map((candidate) => candidate.score)).toEqual([0.5, 0.5, 0.5]);
    expect(ranked.map((candidate) => candidate.id)).toEqual(["b", "a", "c"]);
  });

  it("orders candidates equal in score and similarity by id", () => {
    const ranked = rankCandidates([holdingChurn("b", 0.1), holdingChurn("a", 0.1)], stats, 10);
    expect(ranked.map((candidate) => candidate.id)).toEqual(["a", "b"]);
  });
});

describe("the floor of a query of no known word", () => {
  const near = (id: string, similarity: number) => ({ id, similarity, matchedLexemes: [], matchedWeights: [] });
  const between = (FUSION.similarityZero + FUSION.wordlessSimilarity) / 2;

  it("needs FUSION.wordlessSimilarity when neither the collection nor the dictionary knows a word of the query", () => {
    const junk: LexemeStats = { documents: 10, documentFrequency: { python3: 0 }, queryLexemes: ["python3"] };
    expect(knowsNoWord(junk)).toBe(true);
    expect(rankCandidates([near("a", between), near("b", FUSION.wordlessSimilarity)], junk, 10).map((candidate) => candidate.id)).toEqual(["b"]);
  });

  it("counts a query without lexemes (emoji, symbols) as knowing no word", () => {
    expect(knowsNoWord({ documents: 10, documentFrequency: {}, queryLexemes: [] })).toBe(true);
  });

  it("keeps the usual floor for a dictionary word the collection lacks, and for a word a document holds", () => {
    const attrition: LexemeStats = { documents: 10, documentFrequency: { attrit: 0 }, queryLexemes: ["attrit"], dictionaryWord: true };
    expect(rankCandidates([near("a", between)], attrition, 10).map((candidate) => candidate.id)).toEqual(["a"]);
    expect(knowsNoWord(stats)).toBe(false);
  });
});

describe("credit through the workspace's vocabulary", () => {
  const vor: LexemeStats = {
    documents: 10,
    documentFrequency: { vor: 0, vehicl: 4, road: 2 },
    queryLexemes: ["vor"],
    alternatives: new Map([["vor", [{ lexemes: ["vehicl", "road"], needed: Math.ceil(2 * HELD.acronym) }]]]),
  };
  const holding = (lexemes: string[]) => ({ id: "a", similarity: null, matchedLexemes: lexemes, matchedWeights: lexemes.map(() => "A") });

  it("credits a query acronym to a candidate holding its name, at the vocabulary weight", () => {
    expect(lexicalScore(holding(["road", "vehicl"]), vor)).toBeCloseTo(FUSION.vocabularyWeight);
  });

  it("gives nothing for one word of a two-word name", () => {
    expect(lexicalScore(holding(["vehicl"]), vor)).toBe(0);
  });
});
