// Questions an analyst might type, each different, as real clients send them: a bench that asks a
// few in turn measures less (docs/performance.md, "What a client sees").

const ASKS = ["why did", "what drove", "how did", "where did", "which accounts saw", "when did"];
const SUBJECTS = ["churn", "revenue", "signups", "refunds", "ad spend", "gross margin", "order volume", "support tickets", "trial conversions", "renewals", "page load time"];
const PLACES = ["in EMEA", "in Japan", "in Brazil", "for enterprise accounts", "in Germany", "for self-serve users", "in India", "in North America", "for new cohorts"];
const WHEN = ["last quarter", "after the price change", "in Q2", "over the holidays", "since the redesign", "this month"];

/** The n-th of 3,564 different questions an analyst might type. */
export function distinctQuestion(n: number): string {
  const pick = <T>(list: T[], salt: number) => list[Math.floor(n / salt) % list.length]!;
  return `${pick(ASKS, 1)} ${pick(SUBJECTS, ASKS.length)} change ${pick(PLACES, ASKS.length * SUBJECTS.length)} ${pick(WHEN, ASKS.length * SUBJECTS.length * PLACES.length)}`;
}

