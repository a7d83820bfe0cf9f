import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { createEmbeddingsProvider } from "../../src/embeddings/create-embeddings";
import { LocalEmbeddings } from "../../src/embeddings/local-embeddings";
import { MODEL_THREAD_YOUNG_GENERATION_MB, ModelThread } from "../../src/embeddings/model-thread";
import { waitFor } from "../support/wait-for";

/**
 * These tests are about the vectors and the threads, not the query's budget (tests/embeddings/
 * query-lane.test.ts): a wide budget keeps a loaded machine's slow first query from failing them.
 */
const UNHURRIED_MS = 60_000;

let embeddings: LocalEmbeddings;
beforeAll(() => {
  embeddings = new LocalEmbeddings({ queryBudgetMs: UNHURRIED_MS });
});
afterAll(() => embeddings.close());

const cosine = (a: number[], b: number[]) => a.reduce((sum, value, i) => sum + value * b[i]!, 0);

/** The nice value of each thread of this process (field 19 of stat, counted after the command name, which may hold spaces). */
const niceOfThreads = () =>
  readdirSync("/proc/self/task").map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
  });
const lowPriorityThreads = () => niceOfThreads().filter((nice) => nice === 19).length;

describe("LocalEmbeddings (Universal Sentence Encoder, offline)", () => {
  it("returns one 512-dimensional unit vector per text, in order", async () => {
    const vectors = await embeddings.embed(["first", "second", "third"]);
    expect(vectors).toHaveLength(3);
    for (const vector of vectors) {
      expect(vector).toHaveLength(512);
      expect(Math.hypot(...vector)).toBeCloseTo(1, 4);
    }
  });

  it("is deterministic", async () => {
    const [a] = await embeddings.embed(["Net revenue retention fell in Q3"]);
    const [b] = await embeddings.embed(["Net revenue retention fell in Q3"]);
    expect(a).toEqual(b);
  });

  it("puts a paraphrase nearer than an unrelated sentence", async () => {
    const [text, paraphrase, unrelated] = await embeddings.embed([
      "Monthly churn rose among enterprise customers",
      "More large business clients are cancelling each month",
      "The office coffee machine is broken",
    ]);
    expect(cosine(text!, paraphrase!)).toBeGreaterThan(cosine(text!, unrelated!) + 0.1);
  });

  it("reads no more of a query than its first maxInputChars characters, whatever its length", async () => {
    const start = "Which enterprise accounts churned after the price change, and what revenue did we lose? ".repeat(20).slice(0, embeddings.maxInputChars);
    const [whole, cut] = await Promise.all([embeddings.embedQuery(`${start}${"and more words ".repeat(60_000)}`), embeddings.embedQuery(start)]);
    expect(whole).toEqual(cut);
  });

  it("embeds off the event loop: timers keep firing while a batch is embedded", async () => {
    const texts = Array.from({ length: 64 }, (_, i) => `sentence number ${i} about quarterly revenue by region`);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const started = Date.now();
    await embeddings.embed(texts);
    clearInterval(timer);
    const elapsed = Date.now() - started;
    // A blocked loop would fire one tick when the batch ends; a loaded machine fires fewer than the
    // clock allows, but still many (capped so that a long batch on a busy machine asks no more).
    expect(ticks).toBeGreaterThanOrEqual(Math.min(20, Math.floor(elapsed / 5 / 3)));
  });

  it("keeps a process alive while the model loads for its first query", async () => {
    // The thread does not hold the process open when idle; a script whose only work is one query
    // must still get its answer rather than exit before the model has loaded.
    const script = 'new (require("./src/embeddings/local-embeddings").LocalEmbeddings)().embedQuery("churn in EMEA").then((v) => console.log("dimensions", v.length))';
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "-e", script], { cwd: path.join(__dirname, "..", ".."), timeout: 150_000 });
    expect(stdout.trim()).toBe("dimensions 512");
  });

  it("names its model", () => {
    expect(embeddings.model).toBe("local/universal-sentence-encoder-en/512");
  });

  it("runs its index threads at the lowest CPU priority and its query thread at the normal one", async () => {
    const pool = new LocalEmbeddings({ indexThreads: 2, queryBudgetMs: UNHURRIED_MS });
    const lowBefore = lowPriorityThreads();
    try {
      await Promise.all([pool.embed(["one"]), pool.embed(["two"]), pool.embedQuery("three")]);
      expect(lowPriorityThreads() - lowBefore).toBe(2);
    } finally {
      await pool.close();
      // A closed thread leaves the process a moment after close resolves: the next test counts from here.
      await waitFor(() => lowPriorityThreads() === lowBefore, { what: "the pool's index threads gone" });
    }
  });

  it("leaves the process's thread pool at the normal priority when an index thread is the first to use it", async () => {
    // A fresh process (as the worker is) whose main thread has handed libuv no work yet: the pool
    // starts from the first thread that does, and its threads inherit that thread's nice value.
    const script = [
      'const { readdirSync, readFileSync } = require("node:fs");',
      'const nice = (tid) => { const s = readFileSync(`/proc/self/task/${tid}/stat`, "utf8"); return Number(s.slice(s.lastIndexOf(")") + 2).split(" ")[16]); };',
      'const pool = new (require("./src/embeddings/local-embeddings").LocalEmbeddings)({ indexThreads: 1 });',
      "pool.embed([\"one\"]).then(() => {",
      '  const threads = readdirSync("/proc/self/task").map((tid) => ({ name: readFileSync(`/proc/self/task/${tid}/comm`, "utf8").trim(), nice: nice(tid) }));',
      "  console.log(JSON.stringify(threads));",
      "  return pool.close();",
      "});",
    ].join("\n");
    const { stdout } = await promisify(execFile)(process.execPath, ["-r", "tsx/cjs", "-e", script], { cwd: path.join(__dirname, "..", ".."), timeout: 150_000 });
    const threads = JSON.parse(stdout.trim()) as { name: string; nice: number }[];
    expect(threads.filter((thread) => thread.nice === 19).map((thread) => thread.name)).toEqual(["model-index"]);
    expect(threads.filter((thread) => thread.name === "libuv-worker").length).toBeGreaterThan(0);
  });

  it("gives a process that does no index work (INDEXER=worker) the query thread alone", async () => {
    const queriesOnly = createEmbeddingsProvider({ provider: "local", model: undefined, indexThreads: 2 }, { indexes: false });
    const lowBefore = lowPriorityThreads();
    try {
      expect(await queriesOnly.embedQuery("churn in EMEA")).toHaveLength(512);
      expect(queriesOnly.indexLanes).toBe(0);
      await expect(queriesOnly.embed(["an index batch"])).rejects.toThrow(/no index threads.*INDEXER=worker/);
      expect(lowPriorityThreads()).toBe(lowBefore);
    } finally {
      await queriesOnly.close();
    }
  });

  it("caps the young generation of a model thread's heap", async () => {
    const thread = new ModelThread({ name: "model-query" });
    try {
      await thread.embed(["churn in EMEA"]);
      expect(thread.resourceLimits?.maxYoungGenerationSizeMb).toBe(MODEL_THREAD_YOUNG_GENERATION_MB);
    } finally {
      await thread.close();
    }
  });
});
