/** Every vector column is vector(512); both providers are asked for exactly this many dimensions. */
export const EMBEDDING_DIMENSIONS = 512;

/**
 * The request path's budget for a query embedding (no retries): past it, search runs on its
 * full-text half, as when the provider is down.
 */
export const QUERY_BUDGET_MS = 1_500;

export interface EmbeddingsProvider {
  /**
   * Identifies the model that made a vector. Stored beside each vector: vectors of different
   * models are never compared, and a model change is a reindex.
   */
  readonly model: string;
  /**
   * The characters of a text the model reads; longer texts are cut to it before embedding (the
   * rest changes nothing but costs time, or makes the provider refuse the text).
   */
  readonly maxInputChars: number;
  /** How many index batches the provider embeds at once: the indexer keeps this many in flight. */
  readonly indexLanes: number;
  /** Index lane: one unit-length vector per text, in order. Rejects when the provider cannot answer. */
  embed(texts: string[]): Promise<number[][]>;
  /**
   * Query lane, for the request path: never queued behind index batches; rejects past
   * QUERY_BUDGET_MS.
   */
  embedQuery(text: string): Promise<number[]>;
  close(): Promise<void>;
}

/**
 * The provider refused these inputs (a bad or over-long text), as opposed to being unreachable:
 * retrying the same texts will not help, so the indexer retries each row alone and sets aside
 * the ones refused again.
 */
export class InputRejectedError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "InputRejectedError";
  }
}

/** The query lane did not answer within its budget: search goes on by words alone. */
export class QueryBudgetExceededError extends Error {
  constructor(readonly budgetMs: number) {
    super(`query embedding took over ${budgetMs} ms`);
    this.name = "QueryBudgetExceededError";
  }
}

/** A text cut to what a model reads. */
export const cutToModelInput = (text: string, maxChars: number): string => (text.length > maxChars ? text.slice(0, maxChars) : text);

/** The text of a vector for SQL: `[0.1,0.2,…]`, the input format of pgvector. */
export function toVectorLiteral(vector: number[]): string {
  if (vector.length !== EMBEDDING_DIMENSIONS) {
    throw new Error(`expected a ${EMBEDDING_DIMENSIONS}-dimensional vector, got ${vector.length}`);
  }
  return `[${vector.join(",")}]`;
}
