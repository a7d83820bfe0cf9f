import type { EmbeddingsProvider } from "../src/embeddings/embeddings-provider";

/**
 * The real provider, remembering the vector of each text it has made: when `--tune` runs the same
 * queries under several weightings, each query is embedded once.
 */
export class MemoizingEmbeddings implements EmbeddingsProvider {
  private readonly vectors = new Map<string, number[]>();

  constructor(private readonly inner: EmbeddingsProvider) {}

  get model(): string {
    return this.inner.model;
  }

  get maxInputChars(): number {
    return this.inner.maxInputChars;
  }

  get indexLanes(): number {
    return this.inner.indexLanes;
  }

  async embed(texts: string[]): Promise<number[][]> {
    const missing = [...new Set(texts.filter((text) => !this.vectors.has(text)))];
    if (missing.length > 0) {
      const made = await this.inner.embed(missing);
      missing.forEach((text, i) => this.vectors.set(text, made[i]!));
    }
    return texts.map((text) => this.vectors.get(text)!);
  }

  async embedQuery(text: string): Promise<number[]> {
    const known = this.vectors.get(text);
    if (known) return known;
    const vector = await this.inner.embedQuery(text);
    this.vectors.set(text, vector);
    return vector;
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
