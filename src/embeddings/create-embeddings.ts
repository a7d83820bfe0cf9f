import type { Config } from "../config";
import type { EmbeddingsProvider } from "./embeddings-provider";
import { LocalEmbeddings } from "./local-embeddings";
import { OpenAiEmbeddings } from "./openai-embeddings";

export function createEmbeddingsProvider(config: Config["embeddings"]): EmbeddingsProvider {
  if (config.provider === "openai") {
    return new OpenAiEmbeddings({ apiKey: config.openaiApiKey!, baseURL: config.openaiBaseUrl, model: config.model });
  }
  return new LocalEmbeddings({ indexThreads: config.indexThreads });
}
