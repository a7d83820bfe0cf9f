import type { Config } from "../config";
import type { EmbeddingsProvider } from "./embeddings-provider";
import { LocalEmbeddings } from "./local-embeddings";
import { OpenAiEmbeddings } from "./openai-embeddings";

/**
 * The provider of one process. A process that does no index work (`indexes: false`: a web process
 * with INDEXER=worker) gets the local model's query thread alone, never its index threads, each of
 * which holds a copy of the model. With the OpenAI provider no process loads the local model.
 */
export function createEmbeddingsProvider(config: Config["embeddings"], { indexes = true }: { indexes?: boolean } = {}): EmbeddingsProvider {
  if (config.provider === "openai") {
    return new OpenAiEmbeddings({ apiKey: config.openaiApiKey!, baseURL: config.openaiBaseUrl, model: config.model, queryTimeoutMs: config.queryBudgetMs });
  }
  return new LocalEmbeddings({ indexThreads: indexes ? config.indexThreads : 0, queryBudgetMs: config.queryBudgetMs });
}
