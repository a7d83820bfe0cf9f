import { notFound } from "../domain/errors";
import type { Logger } from "../lib/logger";
import type { VectorIndexRepository } from "../repositories/vector-index.repository";
import type { PurgeCounts, WorkspacePurgeRepository } from "../repositories/workspace-purge.repository";
import type { WorkspaceVocabulary } from "../search/workspace-vocabulary";
import type { FileStorage } from "../storage/file-storage";

export interface WorkspaceDeletion {
  workspaceId: string;
  /** Rows deleted by table, as the statements counted them (rows a cascade took are not counted). */
  rows: PurgeCounts;
  /** The workspace's own vector indexes that were dropped. */
  indexesDropped: string[];
  /** Stored skill-file blobs removed. */
  blobsRemoved: number;
}

/**
 * Deletes a workspace and everything derived from it (docs/decisions.md, "Export and deletion"):
 * every row in one transaction, so that a failure leaves the workspace whole and the delete can
 * simply be sent again; then what lives outside the transaction — its own vector indexes, the
 * stored bytes of its skill files, and what this process still remembered of it.
 */
export function createWorkspaceDeletionService(deps: {
  inTransaction: <T>(work: (purge: WorkspacePurgeRepository) => Promise<T>) => Promise<T>;
  vectorIndexes: Pick<VectorIndexRepository, "dropOwnIndexes" | "forget">;
  /** Where the database can drop an index without blocking the table (PostgreSQL; not PGlite). */
  concurrentIndexDrops: boolean;
  storage: Pick<FileStorage, "remove">;
  /** In-process caches that could still answer for the workspace. */
  forget: Array<(workspaceId: string) => void>;
  vocabulary: Pick<WorkspaceVocabulary, "forget">;
  logger: Logger;
}) {
  return {
    async delete(workspaceId: string): Promise<WorkspaceDeletion> {
      const deleted = await deps.inTransaction(async (purge) => {
        if (!(await purge.lock(workspaceId))) return null;
        const remains = await purge.remains(workspaceId);
        return { remains, rows: await purge.purge(workspaceId, remains) };
      });
      if (!deleted) throw notFound(`Workspace ${workspaceId} not found`);
      for (const forget of [...deps.forget, deps.vectorIndexes.forget, deps.vocabulary.forget]) forget(workspaceId);
      // Outside the transaction: a DROP INDEX in it would lock the whole table (every workspace's
      // searches) until the commit. A failure here leaves no row of the workspace, only an index
      // or bytes no one reaches, and is logged with what is left.
      let indexesDropped: string[] = [];
      try {
        indexesDropped = await deps.vectorIndexes.dropOwnIndexes(workspaceId, { concurrently: deps.concurrentIndexDrops });
      } catch (error) {
        deps.logger.error({ err: error, workspaceId }, "workspace deleted, but its own vector indexes could not all be dropped");
      }
      let blobsRemoved = 0;
      try {
        await deps.storage.remove(deleted.remains.storageKeys);
        blobsRemoved = deleted.remains.storageKeys.length;
      } catch (error) {
        deps.logger.error({ err: error, workspaceId, storageKeys: deleted.remains.storageKeys }, "workspace deleted, but its stored skill files could not be removed");
      }
      deps.logger.info({ workspaceId, rows: deleted.rows, indexesDropped, blobsRemoved }, "workspace deleted");
      return { workspaceId, rows: deleted.rows, indexesDropped, blobsRemoved };
    },
  };
}

export type WorkspaceDeletionService = ReturnType<typeof createWorkspaceDeletionService>;
