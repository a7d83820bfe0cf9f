import { randomUUID } from "node:crypto";
import type { Db, DbTx } from "../db/database";
import { inReadOnlySnapshot } from "../db/read-only-snapshot";
import { onBehalfOf } from "../db/workspace-scope";
import { cutToModelInput, InputRejectedError, type EmbeddingsProvider } from "../embeddings/embeddings-provider";
import { measuredEmbedding } from "../embeddings/measured-call";
import type { Logger } from "../lib/logger";
import { ATTR_BATCH_ROWS, ATTR_EMBEDDING_TABLE, ATTR_EMBEDDING_TIER, SPAN_EMBEDDING_BATCH } from "../telemetry/conventions";
import { instruments } from "../telemetry/instruments";
import { inSpan } from "../telemetry/tracing";
import {
  createEmbeddingQueues,
  type ClaimedRow,
  type EmbeddedTableName,
  type EmbeddingQueue,
  type IndexState,
  type RowFailure,
  type RowKey,
  type TierBacklog,
} from "../repositories/embedding-queue.repository";

export type IndexCounts = Record<EmbeddedTableName, number>;
export type WorkspaceIndexState = { model: string; tables: Record<EmbeddedTableName, IndexState & { failures: RowFailure[] }> };

export interface IndexerOptions {
  /** A batch holds at most this many rows… */
  batchRows: number;
  /** …this many characters (after the cut to what the model reads)… */
  batchChars: number;
  /** …and as many characters as the model has taken this long for, by the running estimate. */
  batchMs: number;
  /** Rows per UPDATE when storing vectors. Small on the embedded database, where a statement holds the one connection. */
  storeRows: number;
  /** How long a claim holds a row; a crashed indexer's rows are pending again after it. */
  leaseSeconds: number;
  /** Refusals after which a row is set aside as failed. */
  maxAttempts: number;
  /** Wait between looks for pending rows when none were found (and nobody called wake()). */
  idlePollMs: number;
  /**
   * The same while writers' notices arrive (noticesArrive(true), pending-rows-notice.ts): a look
   * then only finds what no notice announces, rows whose claim ran out (`leaseSeconds`) in an
   * indexer that crashed.
   */
  listeningPollMs: number;
  /** How long writes must pause after a wake() before the loop looks for pending rows… */
  wakeDelayMs: number;
  /** …and how long a steady stream of writes can put it off. */
  maxWakeDelayMs: number;
  /** Whether reindex embeds during the request (false: another process's indexer does it). */
  reindexInline: boolean;
  /**
   * Tells the other processes that index that rows are pending (announcePendingRows on
   * PostgreSQL), once writes pause as for wake(), naming this indexer (`from`: its `id`); none on
   * the embedded database, whose one process indexes.
   */
  announce?: (from: string) => Promise<void>;
}

export const DEFAULT_INDEXER_OPTIONS: IndexerOptions = {
  batchRows: 32,
  batchChars: 12_000,
  batchMs: 2_000,
  storeRows: 32,
  leaseSeconds: 120,
  maxAttempts: 3,
  idlePollMs: 5_000,
  listeningPollMs: 30_000,
  wakeDelayMs: 200,
  maxWakeDelayMs: 2_000,
  reindexInline: true,
};

const MAX_BACKOFF_MS = 60_000;
const FAILURES_SHOWN = 20;
/** The index state's read: a connection within 10 s, its counts within a minute (at 100,000 artifacts they take seconds). */
const STATE_READ = { maxWait: 10_000, timeout: 60_000 };

/** Thrown into the batch in flight by stop(): its rows are let go and stay pending. */
class Abandoned extends Error {}

const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));
const describe = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 1_000);

/**
 * Fills pending vectors in the background, so that writes never wait for (or fail with) the
 * embeddings provider. Rows are claimed with a lease (`FOR UPDATE SKIP LOCKED`), so any number of
 * indexers — web processes or workers — share a backlog without embedding a row twice. Empty texts
 * are skipped; a row the provider refuses is retried alone and, after `maxAttempts`, set aside
 * with its error. While the provider is unreachable it backs off exponentially; full-text search
 * finds the pending rows meanwhile.
 */
export class EmbeddingIndexer {
  /** Names this indexer's own notices of pending rows: woken by the write already, it ignores them. */
  readonly id = randomUUID();
  private readonly options: IndexerOptions;
  private readonly queues: EmbeddingQueue[];
  private running = false;
  /** Set by stop() on a started indexer: work still in flight is abandoned, not awaited. */
  private stopping = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private wakeTimer: NodeJS.Timeout | undefined;
  private lastWakeAt = 0;
  private wokenWhileBusy = false;
  private abandon: (() => void) | undefined;
  private stopped: Promise<never> = new Promise<never>(() => {});
  private failures = 0;
  private nextQueue = 0;
  /** Whether writers' notices reach this process now (noticesArrive). */
  private listening = false;
  /** Running estimate of model time per character, for the time bound of a batch. */
  private msPerChar: number | undefined;

  constructor(
    private readonly db: Db,
    private readonly embeddings: EmbeddingsProvider,
    private readonly logger: Logger,
    options: Partial<IndexerOptions> = {},
  ) {
    this.options = { ...DEFAULT_INDEXER_OPTIONS, ...options };
    this.queues = createEmbeddingQueues(db);
  }

  /** Embeds every pending row it can claim now (optionally of one workspace); rejects if the provider is unreachable. */
  async runOnce(workspaceId?: string): Promise<number> {
    return this.drain({ workspaceId });
  }

  /**
   * Claims and settles batches until nothing is pending, with as many batches in flight as the
   * provider embeds at once (each lane claims its own rows). The vectors stored; rejects with the
   * first lane's error once every lane has stopped.
   */
  private async drain({ workspaceId, background = false }: { workspaceId?: string; background?: boolean }): Promise<number> {
    const lane = async () => {
      let stored = 0;
      while (!(background && !this.running)) {
        const batch = await this.runBatch(workspaceId);
        if (batch === undefined) break;
        stored += batch;
        await yieldToRequests();
      }
      return stored;
    };
    const lanes = await Promise.allSettled(Array.from({ length: Math.max(1, this.embeddings.indexLanes) }, lane));
    const failed = lanes.find((result) => result.status === "rejected");
    if (failed) throw failed.reason;
    return lanes.reduce((sum, result) => sum + (result.status === "fulfilled" ? result.value : 0), 0);
  }

  /**
   * Marks a workspace's vectors pending again, failed ones included, and embeds them now when this
   * process indexes. When the provider fails part-way, the rest stays pending for the background.
   */
  async reindexWorkspace(workspaceId: string): Promise<{ cleared: IndexCounts; embedded: number; pending: boolean }> {
    const cleared = {} as IndexCounts;
    for (const queue of this.queues) cleared[queue.name] = await queue.clear(workspaceId);
    if (!this.options.reindexInline) {
      this.wake();
      return { cleared, embedded: 0, pending: true };
    }
    try {
      return { cleared, embedded: await this.runOnce(workspaceId), pending: false };
    } catch (error) {
      this.logger.warn({ err: error, workspaceId }, "reindex could not finish; the background indexer will");
      this.wake();
      return { cleared, embedded: 0, pending: true };
    }
  }

  /** Rows still to embed and rows set aside, per table and tier, across workspaces (the backlog gauges). */
  async backlog(): Promise<Array<TierBacklog & { table: EmbeddedTableName }>> {
    const figures = [];
    for (const queue of this.queues) {
      for (const tier of await queue.backlog(this.embeddings.model, this.options.maxAttempts)) figures.push({ table: queue.name, ...tier });
    }
    return figures;
  }

  /**
   * Pending, failed (with their errors), embedded and skipped rows of a workspace, per table, as of
   * one moment. The counts read every row of the workspace's four tables, 700,000 at 100,000
   * artifacts, which takes longer than a request's statement timeout while the model is busy: in
   * a read-only snapshot whose statements may run as long as STATE_READ allows, so that an
   * operator's slow count is answered, not refused as a database that is not answering. On behalf
   * of the workspace, so that on Citus a node known to be away refuses it at once, and one that
   * hangs under it has its connection given up, instead of holding it for the minute.
   */
  async state(workspaceId: string): Promise<WorkspaceIndexState> {
    const { model } = this.embeddings;
    const { maxAttempts } = this.options;
    const read = async (tx: DbTx) => {
      const tables = {} as WorkspaceIndexState["tables"];
      for (const queue of createEmbeddingQueues(tx)) {
        const counts = await queue.state(workspaceId, model, maxAttempts);
        const failures = counts.failed === 0 ? [] : await queue.failures(workspaceId, model, maxAttempts, FAILURES_SHOWN);
        tables[queue.name] = { ...counts, failures };
      }
      return { model, tables };
    };
    return onBehalfOf(workspaceId, () => inReadOnlySnapshot(this.db, read, STATE_READ));
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopping = false;
    this.stopped = new Promise<never>((_, reject) => {
      this.abandon = () => reject(new Abandoned("indexer stopping"));
    });
    this.stopped.catch(() => {});
    this.loop = this.run();
  }

  /**
   * Asks the background loop to look for pending rows once writes pause: `wakeDelayMs` after the
   * last wake, or `maxWakeDelayMs` after the first of a steady stream. A burst of pushes is then
   * embedded as one backlog after it, instead of the indexer's claims and stores running between
   * the pushes (on the embedded database, on the same connection).
   */
  wake(): void {
    const now = Date.now();
    this.lastWakeAt = now;
    if (this.wakeTimer) return;
    const firstWakeAt = now;
    const fire = () => {
      const quietFor = Date.now() - this.lastWakeAt;
      const waited = Date.now() - firstWakeAt;
      if (quietFor < this.options.wakeDelayMs && waited < this.options.maxWakeDelayMs) {
        this.wakeTimer = setTimeout(fire, Math.min(this.options.wakeDelayMs - quietFor, this.options.maxWakeDelayMs - waited));
        this.wakeTimer.unref();
        return;
      }
      this.wakeTimer = undefined;
      this.lookNow();
      this.options.announce?.(this.id).catch((error: unknown) => this.logger.warn({ err: error }, "could not announce pending rows; the indexers find them at their next look"));
    };
    this.wakeTimer = setTimeout(fire, this.options.wakeDelayMs);
    this.wakeTimer.unref();
  }

  /** Looks for pending rows now (a notice of another process's writes): no wake delay, nothing announced. */
  lookNow(): void {
    if (this.wakeUp) this.wakeUp();
    else this.wokenWhileBusy = true;
  }

  /** Whether writers' notices reach this process: while they do, it looks every `listeningPollMs` only. */
  noticesArrive(listening: boolean): void {
    this.listening = listening;
    // The wait in progress was chosen for the other case.
    this.lookNow();
  }

  /** True while the background loop sits between passes, waiting for a wake or its next poll. */
  get waiting(): boolean {
    return this.wakeUp !== undefined;
  }

  /** Stops at once: the batch in flight is abandoned (its rows stay pending), whatever the backlog. */
  async stop(): Promise<void> {
    this.stopping = this.loop !== undefined;
    this.running = false;
    this.abandon?.();
    clearTimeout(this.wakeTimer);
    this.wakeTimer = undefined;
    this.wakeUp?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let delay = this.listening ? this.options.listeningPollMs : this.options.idlePollMs;
      try {
        const embedded = await this.drain({ background: true });
        if (embedded > 0) this.logger.debug({ embedded, model: this.embeddings.model }, "embedded pending rows");
        this.failures = 0;
      } catch (error) {
        if (error instanceof Abandoned) break;
        this.failures += 1;
        delay = Math.min(MAX_BACKOFF_MS, 1_000 * 2 ** (this.failures - 1));
        this.logger.warn({ err: error, retryInMs: delay }, "embedding pending rows failed; will retry");
      }
      if (!this.running) break;
      // Rows written while this pass was finishing may have been missed by it: look again at once.
      if (this.wokenWhileBusy) delay = 0;
      this.wokenWhileBusy = false;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        timer.unref();
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = undefined;
    }
  }

  /**
   * Claims one batch of the first priority tier with pending rows, from the next table with such
   * rows (tables take turns), and settles it: every item becomes findable by meaning before any
   * item's refining vectors are made. The number of vectors stored, or undefined when nothing was
   * pending.
   */
  private async runBatch(workspaceId?: string): Promise<number | undefined> {
    const { queues } = this;
    const tiers = Math.max(...queues.map((queue) => queue.tiers));
    for (let tier = 0; tier < tiers; tier++) {
      for (let turn = 0; turn < queues.length; turn++) {
        const queue = queues[(this.nextQueue + turn) % queues.length]!;
        if (tier >= queue.tiers) continue;
        const claimed = await queue.claim({
          model: this.embeddings.model,
          limit: this.options.batchRows,
          leaseSeconds: this.options.leaseSeconds,
          maxAttempts: this.options.maxAttempts,
          workspaceId,
          tier,
        });
        if (claimed.length === 0) continue;
        this.nextQueue = (this.nextQueue + turn + 1) % queues.length;
        // Each batch is a trace of its own: the provider's call and the statements that store its answer.
        const attributes = { [ATTR_EMBEDDING_TABLE]: queue.name, [ATTR_EMBEDDING_TIER]: tier, [ATTR_BATCH_ROWS]: claimed.length };
        return inSpan(SPAN_EMBEDDING_BATCH, { attributes }, () => this.settle(queue, claimed));
      }
    }
    return undefined;
  }

  private async settle(queue: EmbeddingQueue, claimed: ClaimedRow[]): Promise<number> {
    const rows = claimed.map((row) => ({ ...row, text: cutToModelInput(row.text ?? "", this.embeddings.maxInputChars) }));
    const empty = rows.filter((row) => row.text.trim() === "");
    if (empty.length > 0) await queue.skipMany(empty, this.embeddings.model);
    const batch = this.withinBounds(rows.filter((row) => row.text.trim() !== ""));
    const later = rows.filter((row) => row.text.trim() !== "" && !batch.includes(row));
    if (later.length > 0) await queue.release(later);
    if (batch.length === 0) return 0;
    try {
      const started = performance.now();
      const vectors = await this.unlessStopped(this.embed(batch.map((row) => row.text)));
      this.learnSpeed(performance.now() - started, batch);
      await this.store(queue, batch, vectors);
      instruments().vectorsEmbedded.add(batch.length, { [ATTR_EMBEDDING_TABLE]: queue.name });
      return batch.length;
    } catch (error) {
      if (!(error instanceof InputRejectedError)) {
        await queue.release(batch);
        throw error;
      }
      return this.settleOneByOne(queue, batch, error);
    }
  }

  /** After a refused batch: each row alone, so that only the rows the provider refuses are counted. */
  private async settleOneByOne(queue: EmbeddingQueue, batch: Array<RowKey & { text: string }>, refusal: InputRejectedError): Promise<number> {
    if (batch.length === 1) {
      await queue.recordFailure(batch[0]!, describe(refusal));
      return 0;
    }
    let stored = 0;
    for (const [index, row] of batch.entries()) {
      try {
        const vectors = await this.unlessStopped(this.embed([row.text]));
        await this.store(queue, [row], vectors);
        instruments().vectorsEmbedded.add(1, { [ATTR_EMBEDDING_TABLE]: queue.name });
        stored += 1;
      } catch (error) {
        if (!(error instanceof InputRejectedError)) {
          await queue.release(batch.slice(index));
          throw error;
        }
        this.logger.warn({ err: error, table: queue.name, id: row.id }, "the embeddings provider refused a row");
        await queue.recordFailure(row, describe(error));
      }
    }
    return stored;
  }

  /** The provider's index lane, timed and traced. */
  private embed(texts: string[]): Promise<number[][]> {
    return measuredEmbedding(this.embeddings, "index", () => this.embeddings.embed(texts));
  }

  /** The longest prefix within the row, character and time bounds (at least one row). */
  private withinBounds<R extends { text: string }>(rows: R[]): R[] {
    const byTime = this.msPerChar ? this.options.batchMs / this.msPerChar : Number.POSITIVE_INFINITY;
    const maxChars = Math.min(this.options.batchChars, byTime);
    let chars = 0;
    let count = 0;
    for (const row of rows.slice(0, this.options.batchRows)) {
      chars += row.text.length;
      if (count > 0 && chars > maxChars) break;
      count += 1;
    }
    return rows.slice(0, count);
  }

  private learnSpeed(ms: number, batch: Array<{ text: string }>): void {
    const chars = batch.reduce((sum, row) => sum + row.text.length, 0);
    if (chars === 0) return;
    const sample = ms / chars;
    this.msPerChar = this.msPerChar === undefined ? sample : 0.7 * this.msPerChar + 0.3 * sample;
  }

  private async store(queue: EmbeddingQueue, rows: RowKey[], vectors: number[][]): Promise<void> {
    for (let start = 0; start < rows.length; start += this.options.storeRows) {
      const end = start + this.options.storeRows;
      await queue.storeMany(rows.slice(start, end), vectors.slice(start, end), this.embeddings.model);
      if (end < rows.length) await yieldToRequests();
    }
  }

  /**
   * The model's answer, unless stop() comes first: then its rows are let go by the caller. A batch
   * another lane claims while stop() runs is abandoned at once too.
   */
  private unlessStopped<T>(work: Promise<T>): Promise<T> {
    return this.running || this.stopping ? Promise.race([work, this.stopped]) : work;
  }
}
