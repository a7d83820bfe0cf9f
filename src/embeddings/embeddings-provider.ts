/** Every vector column is vector(512); both providers are asked for exactly this many dimensions. */
export const EMBEDDING_DIMENSIONS = 512;

export interface EmbeddingsProvider {
  /**
   * Identifies the model that made a vector. Stored beside each vector: vectors of different
   * models are never compared, and a model change is a reindex.
   */
  readonly model: string;
  /** One unit-length vector per text, in order. Rejects when the provider cannot answer. */
  embed(texts: string[]): Promise<number[][]>;
  close(): Promise<void>;
}

/** The text of a vector for SQL: `[0.1,0.2,…]`, the input format of pgvector. */
export function toVectorLiteral(vector: number[]): string {
  if (vector.length !== EMBEDDING_DIMENSIONS) {
    throw new Error(`expected a ${EMBEDDING_DIMENSIONS}-dimensional vector, got ${vector.length}`);
  }
  return `[${vector.join(",")}]`;
}
