import {
  ATTR_EMBEDDING_LANE,
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_EMBEDDINGS_DIMENSION_COUNT,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  GEN_AI_OPERATION_EMBEDDINGS,
} from "../telemetry/conventions";
import { instruments, secondsSince } from "../telemetry/instruments";
import { errorTypeOf, inSpan, SpanKind } from "../telemetry/tracing";
import { EMBEDDING_DIMENSIONS, type EmbeddingsProvider } from "./embeddings-provider";

export type EmbeddingLane = "query" | "index";

/**
 * One call of the embeddings provider as the GenAI conventions describe it: a client span
 * `embeddings <model>` and the `gen_ai.client.operation.duration` histogram, by lane, provider,
 * model and (on failure) error type. Texts are never recorded.
 */
export function measuredEmbedding<T>(provider: Pick<EmbeddingsProvider, "model">, lane: EmbeddingLane, call: () => Promise<T>): Promise<T> {
  const { name, model } = describeModel(provider.model);
  const attributes = {
    [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_EMBEDDINGS,
    [ATTR_GEN_AI_PROVIDER_NAME]: name,
    [ATTR_GEN_AI_REQUEST_MODEL]: model,
    [ATTR_EMBEDDING_LANE]: lane,
  };
  const started = performance.now();
  return inSpan(
    `${GEN_AI_OPERATION_EMBEDDINGS} ${model}`,
    { kind: SpanKind.CLIENT, attributes: { ...attributes, [ATTR_GEN_AI_EMBEDDINGS_DIMENSION_COUNT]: EMBEDDING_DIMENSIONS } },
    async () => {
      try {
        const result = await call();
        instruments().embeddingDuration.record(secondsSince(started), attributes);
        return result;
      } catch (error) {
        instruments().embeddingDuration.record(secondsSince(started), { ...attributes, [ATTR_ERROR_TYPE]: errorTypeOf(error) });
        throw error;
      }
    },
  );
}

/** `openai/text-embedding-3-small/512` → provider `openai`, model `text-embedding-3-small`. */
function describeModel(model: string): { name: string; model: string } {
  const [name, ...rest] = model.split("/");
  return rest.length >= 2 ? { name: name!, model: rest.slice(0, -1).join("/") } : { name: "unknown", model };
}
