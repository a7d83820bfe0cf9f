import OpenAI from "openai";
import { cutToModelInput, QUERY_BUDGET_MS, EMBEDDING_DIMENSIONS, InputRejectedError, type EmbeddingsProvider } from "./embeddings-provider";

export const DEFAULT_OPENAI_MODEL = "text-embedding-3-small";

// OpenAI accepts up to 2048 inputs a request; smaller batches keep each request well under its
// token limit and make a retry cheap.
const BATCH_SIZE = 96;

/**
 * The embedding models read at most 8,191 tokens. A token is at least one character of Latin
 * script, so 8,000 characters always fit there; scripts with several tokens a character can still
 * go over, and are then refused, retried alone and set aside by the indexer.
 */
export const OPENAI_MAX_INPUT_CHARS = 8_000;


export interface OpenAiEmbeddingsOptions {
  apiKey: string;
  baseURL?: string;
  model?: string;
  timeoutMs?: number;
  maxRetries?: number;
  queryTimeoutMs?: number;
}

/**
 * OpenAI (or any OpenAI-compatible server) embeddings, asked for 512 dimensions so the vectors fit
 * the same columns as the local model's. Index batches go through a patient client (the SDK
 * retries connection errors, 408, 409, 429 and 5xx with backoff); query texts through a second
 * client with a short timeout and no retries, because a person is waiting.
 */
export class OpenAiEmbeddings implements EmbeddingsProvider {
  readonly model: string;
  readonly maxInputChars = OPENAI_MAX_INPUT_CHARS;
  // Two requests at once: one is sent while the answer to the other is stored.
  readonly indexLanes = 2;
  private readonly client: OpenAI;
  private readonly queryClient: OpenAI;
  private readonly modelName: string;

  constructor(options: OpenAiEmbeddingsOptions) {
    this.modelName = options.model ?? DEFAULT_OPENAI_MODEL;
    this.model = `openai/${this.modelName}/${EMBEDDING_DIMENSIONS}`;
    const connection = { apiKey: options.apiKey, baseURL: options.baseURL };
    this.client = new OpenAI({ ...connection, timeout: options.timeoutMs ?? 15_000, maxRetries: options.maxRetries ?? 3 });
    this.queryClient = new OpenAI({ ...connection, timeout: options.queryTimeoutMs ?? QUERY_BUDGET_MS, maxRetries: 0 });
  }

  async embed(texts: string[]): Promise<number[][]> {
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += BATCH_SIZE) {
      vectors.push(...(await this.request(this.client, texts.slice(start, start + BATCH_SIZE))));
    }
    return vectors;
  }

  async embedQuery(text: string): Promise<number[]> {
    const [vector] = await this.request(this.queryClient, [text]);
    return vector!;
  }

  async close(): Promise<void> {}

  private async request(client: OpenAI, texts: string[]): Promise<number[][]> {
    let response;
    try {
      response = await client.embeddings.create({
        model: this.modelName,
        input: texts.map((text) => cutToModelInput(text, this.maxInputChars)),
        dimensions: EMBEDDING_DIMENSIONS,
        encoding_format: "float",
      });
    } catch (error) {
      // 400 and 422 judge the input (empty, too long, malformed); anything else is the provider's state.
      if (error instanceof OpenAI.BadRequestError || error instanceof OpenAI.UnprocessableEntityError) {
        throw new InputRejectedError(`embeddings server refused the input: ${error.message}`, { cause: error });
      }
      throw error;
    }
    const ordered = [...response.data].sort((a, b) => a.index - b.index);
    if (ordered.length !== texts.length) throw new Error(`embeddings server returned ${ordered.length} vectors for ${texts.length} inputs`);
    return ordered.map((item) => {
      if (item.embedding.length !== EMBEDDING_DIMENSIONS) {
        throw new Error(`embeddings server returned ${item.embedding.length} dimensions; ${EMBEDDING_DIMENSIONS} are needed`);
      }
      return item.embedding;
    });
  }
}
