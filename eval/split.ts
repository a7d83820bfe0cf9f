import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Grades } from "./metrics";

/**
 * `tuning`: a ranking change may be tried here and its misses read. `held-out`: read only to keep or
 * drop a change, never to shape one. A set without a split file is held-out whole.
 */
export type Half = "tuning" | "held-out";
export const HALVES: Half[] = ["tuning", "held-out"];

/** `split.json` beside a set: every item of the workspace in one topic, every topic in one half. */
export interface SplitFile {
  about?: string;
  topics: Array<{ topic: string; half: Half; items: string[] }>;
}

export interface Placement {
  half: Half;
  /** Undefined for a set that has no split file. */
  topic?: string;
}

export function readSplitFile(dir: string): SplitFile | undefined {
  const file = path.join(dir, "split.json");
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as SplitFile) : undefined;
}

/**
 * Places a query by the items it grades 2: they must all lie in one topic, which gives its half.
 * Grade-1 items may lie anywhere (a related item of another topic is only a neighbour). Throws
 * rather than guess, so that no query can fall out of both halves or sit in both.
 */
export function placer(split: SplitFile | undefined): (query: { query: string; relevant: Grades }) => Placement {
  if (!split) return () => ({ half: "held-out" });
  const topicOfItem = new Map<string, { topic: string; half: Half }>();
  for (const { topic, half, items } of split.topics) {
    if (!HALVES.includes(half)) throw new Error(`split: topic "${topic}" has half "${half}"`);
    for (const item of items) {
      if (topicOfItem.has(item)) throw new Error(`split: item "${item}" is in two topics`);
      topicOfItem.set(item, { topic, half });
    }
  }
  return (query) => {
    // A memory recall can grade an artifact's finding memory, `artifact:<key>`: it goes with the artifact.
    const answers = Object.entries(query.relevant)
      .filter(([, grade]) => grade >= 2)
      .map(([key]) => key.replace(/^artifact:/, ""));
    const topics = new Set(answers.map((key) => topicOfItem.get(key)?.topic ?? `(no topic: ${key})`));
    if (topics.size !== 1) throw new Error(`split: "${query.query}" grades 2 items of ${[...topics].join(", ") || "no topic"}`);
    const [topic] = [...topics] as [string];
    if (topic.startsWith("(no topic")) throw new Error(`split: "${query.query}" grades 2 ${topic}`);
    return { topic, half: topicOfItem.get(answers[0]!)!.half };
  };
}
