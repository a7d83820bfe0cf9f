import { FUSION, lexicalScore, rankCandidates, type LexemeStats } from "../../src/search/hybrid-fusion";
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
