import type { Db } from "../db/database";
import { toVectorLiteral, type EmbeddingsProvider } from "../embeddings/embeddings-provider";
import type { Logger } from "../lib/logger";
import { INDEXED_TABLES, type IndexedTable } from "./indexed-tables";

const BATCH_SIZE = 32;
const IDLE_POLL_MS = 5_000;
const MAX_BACKOFF_MS = 60_000;

export type IndexCounts = Record<IndexedTable["name"], number>;

/**
 * Fills pending vectors in the background, so that writes never wait for (or fail with) the
 * embeddings provider. Rows are pending when they have no vector or one made by another model, so
 * a model change re-embeds everything by itself. While the provider is down it backs off
 * exponentially; full-text search finds the pending rows meanwhile.
 */
export class EmbeddingIndexer {
  private running = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private failures = 0;

  constructor(
    private readonly db: Db,
    private readonly embeddings: EmbeddingsProvider,
    private readonly logger: Logger,
    private readonly tables: IndexedTable[] = INDEXED_TABLES,
  ) {}

  /** Embeds every pending row now (optionally of one workspace); rejects if the provider fails. */
  async runOnce(workspaceId?: string): Promise<number> {
    let total = 0;
    for (const table of this.tables) {
      for (;;) {
        const rows = await this.db.$queryRaw<Array<{ id: string; text: string | null }>>(
          table.pending(this.embeddings.model, BATCH_SIZE, workspaceId),
        );
        if (rows.length === 0) break;
        const vectors = await this.embeddings.embed(rows.map((row) => row.text ?? ""));
        await this.db.$executeRaw(
          table.storeMany(
            rows.map((row) => row.id),
            vectors.map(toVectorLiteral),
            this.embeddings.model,
          ),
        );
        total += rows.length;
      }
    }
    return total;
  }

  /**
   * Marks a workspace's vectors pending and embeds them again now. When the provider fails
   * part-way, the rest stays pending for the background loop.
   */
  async reindexWorkspace(workspaceId: string): Promise<{ cleared: IndexCounts; embedded: number; pending: boolean }> {
    const cleared = {} as IndexCounts;
    for (const table of this.tables) cleared[table.name] = await this.db.$executeRaw(table.clear(workspaceId));
    try {
      return { cleared, embedded: await this.runOnce(workspaceId), pending: false };
    } catch (error) {
      this.logger.warn({ err: error, workspaceId }, "reindex could not finish; the background indexer will");
      this.wake();
      return { cleared, embedded: 0, pending: true };
    }
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Asks the background loop to look for pending rows now instead of at its next poll. */
  wake(): void {
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let delay = IDLE_POLL_MS;
      try {
        const done = await this.runOnce();
        if (done > 0) this.logger.debug({ embedded: done, model: this.embeddings.model }, "embedded pending rows");
        this.failures = 0;
      } catch (error) {
        this.failures += 1;
        delay = Math.min(MAX_BACKOFF_MS, 1_000 * 2 ** (this.failures - 1));
        this.logger.warn({ err: error, retryInMs: delay }, "embedding pending rows failed; will retry");
      }
      if (!this.running) break;
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
}
