/** Graded relevance of a query's judged items: 2 = the answer, 1 = related; unjudged items count 0. */
export type Grades = Record<string, number>;

export interface QueryScores {
  hit1: number;
  hit3: number;
  mrr10: number;
  ndcg10: number;
  /**
   * For a query that grades some items 1 (related): 1 when its top 3 holds one of them, else 0;
   * undefined for a query with none. Whether the neighbours a reader would also want come up.
   */
  secondary3?: number;
}

/** A hit is an item graded 2 (the answer); related items count only towards nDCG. */
const isAnswer = (grades: Grades, key: string) => (grades[key] ?? 0) >= 2;

export function scoreRanking(ranked: string[], grades: Grades): QueryScores {
  const firstAnswer = ranked.slice(0, 10).findIndex((key) => isAnswer(grades, key));
  const dcg = ranked.slice(0, 10).reduce((sum, key, i) => sum + (2 ** (grades[key] ?? 0) - 1) / Math.log2(i + 2), 0);
  const ideal = Object.values(grades)
    .sort((a, b) => b - a)
    .slice(0, 10)
    .reduce((sum, grade, i) => sum + (2 ** grade - 1) / Math.log2(i + 2), 0);
  const related = Object.values(grades).some((grade) => grade === 1);
  return {
    ...(related ? { secondary3: ranked.slice(0, 3).some((key) => grades[key] === 1) ? 1 : 0 } : {}),
    hit1: firstAnswer === 0 ? 1 : 0,
    hit3: firstAnswer >= 0 && firstAnswer < 3 ? 1 : 0,
    mrr10: firstAnswer >= 0 ? 1 / (firstAnswer + 1) : 0,
    ndcg10: ideal === 0 ? 0 : dcg / ideal,
  };
}

export function meanScores(scores: QueryScores[]): QueryScores & { n: number; secondaryN: number } {
  const mean = (pick: (s: QueryScores) => number) => (scores.length === 0 ? 0 : scores.reduce((sum, s) => sum + pick(s), 0) / scores.length);
  const withRelated = scores.flatMap((s) => (s.secondary3 === undefined ? [] : [s.secondary3]));
  return {
    n: scores.length,
    hit1: mean((s) => s.hit1),
    hit3: mean((s) => s.hit3),
    mrr10: mean((s) => s.mrr10),
    ndcg10: mean((s) => s.ndcg10),
    secondaryN: withRelated.length,
    secondary3: withRelated.length === 0 ? 0 : withRelated.reduce((a, b) => a + b, 0) / withRelated.length,
  };
}
