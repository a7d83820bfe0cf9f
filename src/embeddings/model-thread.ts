import path from "node:path";
import { Worker, type ResourceLimits } from "node:worker_threads";
import { InputRejectedError } from "./embeddings-provider";

/**
 * The young generation of a model thread's V8 heap, in MB. Tokenizing and running the model leave a
 * great deal of short-lived garbage, for which V8 otherwise grows a thread's young generation to
 * 64–128 MB (it sizes it by the machine's memory, not the instance's): capped, a copy of the model
 * answering queries holds ≈ 110 MB less and one embedding index batches ≈ 130 MB less, for no CPU
 * time that could be told from noise (docs/deployment.md, "Footprint").
 */
export const MODEL_THREAD_YOUNG_GENERATION_MB = 16;

/** Vectors, and when the model finished them (Date.now(), a clock every thread shares). */
export interface TimedVectors {
  vectors: number[][];
  doneAt: number;
}

type Pending = { resolve: (answer: TimedVectors) => void; reject: (error: Error) => void };

/**
 * One worker thread running the local model, answering in FIFO order. Started on first use; an
 * idle thread does not keep the process alive (it is ref'd while requests are pending).
 * `nice` (Linux) lowers the thread's CPU priority: 19 gives it only what nothing else wants.
 * `name` is the thread's name in `top -H` and /proc/<pid>/task/<tid>/comm (Node 24), so that an
 * operator (and the footprint bench) can count a process's model copies.
 */
export class ModelThread {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private loaded: Promise<void> | undefined;
  private markLoaded: (() => void) | undefined;

  constructor(private readonly options: { nice?: number; name?: string } = {}) {}

  /** The V8 heap limits the running thread has (undefined until it starts). */
  get resourceLimits(): ResourceLimits | undefined {
    return this.worker?.resourceLimits;
  }

  /** Requests sent and not yet answered. */
  get inFlight(): number {
    return this.pending.size;
  }

  async embed(texts: string[]): Promise<number[][]> {
    return (await this.embedTimed(texts)).vectors;
  }

  embedTimed(texts: string[]): Promise<TimedVectors> {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    return new Promise<TimedVectors>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) worker.ref();
      worker.postMessage({ id, texts });
    });
  }

  /**
   * Resolves once the model is loaded (starting the thread if needed): a cold start is not a slow
   * answer. The thread is ref'd meanwhile: a script whose only work is waiting for the model
   * would otherwise exit, silently and with status 0, before it had loaded.
   */
  ready(): Promise<void> {
    const worker = this.ensureWorker();
    worker.ref();
    return this.loaded!.finally(() => {
      if (this.pending.size === 0) worker.unref();
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(path.join(__dirname, "local-embeddings.worker.cjs"), {
      name: this.options.name,
      workerData: { nice: this.options.nice },
      resourceLimits: { maxYoungGenerationSizeMb: MODEL_THREAD_YOUNG_GENERATION_MB },
    });
    this.loaded = new Promise<void>((resolve) => (this.markLoaded = resolve));
    worker.on("message", (message: { id: number; vectors?: number[][]; doneAt?: number; error?: string; fatal?: boolean; loaded?: boolean }) => {
      const { id, vectors, doneAt, error, fatal, loaded } = message;
      if (loaded) return this.markLoaded?.();
      const pending = this.pending.get(id);
      if (!pending) return;
      this.pending.delete(id);
      if (this.pending.size === 0) worker.unref();
      // A model that did not load is an outage (the indexer backs off); one that threw on these
      // texts refused them (the indexer retries each row alone).
      if (error !== undefined && fatal) pending.reject(new Error(`local embeddings model unavailable: ${error}`));
      else if (error !== undefined) pending.reject(new InputRejectedError(`local embeddings failed: ${error}`));
      else pending.resolve({ vectors: vectors ?? [], doneAt: doneAt ?? Date.now() });
    });
    worker.on("error", (error) => this.failAll(error));
    worker.on("exit", () => {
      if (this.worker === worker) this.worker = undefined;
      this.markLoaded?.();
      this.failAll(new Error("local embeddings worker exited"));
    });
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error): void {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}
