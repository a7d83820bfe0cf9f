import OpenAI from "openai";
import { EMBEDDING_DIMENSIONS, type EmbeddingsProvider } from "./embeddings-provider";

export const DEFAULT_OPENAI_MODEL = "text-embedding-3-small";

// OpenAI accepts up to 2048 inputs a request; smaller batches keep each request well under its
// token limit and make a retry cheap.
const BATCH_SIZE = 96;

export interface OpenAiEmbeddingsOptions {
  apiKey: string;
  baseURL?: string;
  model?: string;
  timeoutMs?: number;
  maxRetries?: number;
}

/**
 * OpenAI (or any OpenAI-compatible server) embeddings, asked for 512 dimensions so the vectors fit
 * the same columns as the local model's. The SDK retries connection errors, 408, 409, 429 and 5xx
 * with exponential backoff and jitter.
 */
export class OpenAiEmbeddings implements EmbeddingsProvider {
  readonly model: string;
  private readonly client: OpenAI;
  private readonly modelName: string;

  constructor(options: OpenAiEmbeddingsOptions) {
    this.modelName = options.model ?? DEFAULT_OPENAI_MODEL;
    this.model = `openai/${this.modelName}/${EMBEDDING_DIMENSIONS}`;
    this.client = new OpenAI({
      apiKey: options.apiKey,
      baseURL: options.baseURL,
      timeout: options.timeoutMs ?? 15_000,
      maxRetries: options.maxRetries ?? 3,
    });
  }

  async embed(texts: string[]): Promise<number[][]> {
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += BATCH_SIZE) {
      const batch = texts.slice(start, start + BATCH_SIZE);
      const response = await this.client.embeddings.create({
        model: this.modelName,
        input: batch,
        dimensions: EMBEDDING_DIMENSIONS,
        encoding_format: "float",
      });
      const ordered = [...response.data].sort((a, b) => a.index - b.index);
      if (ordered.length !== batch.length) throw new Error(`embeddings server returned ${ordered.length} vectors for ${batch.length} inputs`);
      for (const item of ordered) {
        if (item.embedding.length !== EMBEDDING_DIMENSIONS) {
          throw new Error(`embeddings server returned ${item.embedding.length} dimensions; ${EMBEDDING_DIMENSIONS} are needed`);
        }
        vectors.push(item.embedding);
      }
    }
    return vectors;
  }

  async close(): Promise<void> {}
}
