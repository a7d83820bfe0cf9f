import { conflict, notFound } from "../domain/errors";
import type { Logger } from "../lib/logger";
import type { ArtifactRepository } from "../repositories/artifact.repository";
import type { DataSourceRepository } from "../repositories/data-source.repository";
import type { MemoryRepository } from "../repositories/memory.repository";
import type { SkillRepository } from "../repositories/skill.repository";
import type { WorkspaceRepository } from "../repositories/workspace.repository";
import type { WorkspaceVocabulary } from "../search/workspace-vocabulary";
import type { FileStorage } from "../storage/file-storage";

/**
 * Deletes one thing of a workspace: an artifact, a ledger memory, a skill, a data source. Each is
 * one statement whose foreign-key cascades take what hangs from it (an artifact's vectors, body
 * chunks and memory-bank entry; a skill's files; a source's patterns and learnings) and whose
 * statement-level triggers take its words out of the search statistics, so it is gone from
 * search, recall, feedback, MCP and the console when the statement ends. Each names the workspace
 * it acts in: another workspace's id is not found, exactly as an unknown one.
 */
export function createDeletionService(deps: {
  workspaces: Pick<WorkspaceRepository, "findById">;
  artifacts: Pick<ArtifactRepository, "delete">;
  memories: Pick<MemoryRepository, "findOwner" | "deleteLedger">;
  skills: Pick<SkillRepository, "deleteByName">;
  dataSources: Pick<DataSourceRepository, "deleteByName">;
  storage: Pick<FileStorage, "remove">;
  vocabulary: Pick<WorkspaceVocabulary, "forget">;
  logger: Logger;
}) {
  /** The not-found of a thing in a workspace, or of the workspace itself when that is what is missing. */
  async function missing(workspaceId: string, sentence: string) {
    return (await deps.workspaces.findById(workspaceId)) ? notFound(sentence) : notFound(`Workspace ${workspaceId} not found`);
  }

  return {
    async deleteArtifact(workspaceId: string, artifactId: string): Promise<void> {
      if (!(await deps.artifacts.delete(workspaceId, artifactId))) throw await missing(workspaceId, `Artifact ${artifactId} not found`);
    },

    /** A ledger memory. An artifact's memory-bank entry goes with its artifact, never alone. */
    async deleteMemory(workspaceId: string, memoryId: string): Promise<void> {
      if (await deps.memories.deleteLedger(workspaceId, memoryId)) {
        // A definition memory may have given the workspace's vocabulary a pair.
        deps.vocabulary.forget(workspaceId);
        return;
      }
      const owner = await deps.memories.findOwner(workspaceId, memoryId);
      if (owner?.artifactId) {
        throw conflict(`Memory ${memoryId} is the memory-bank entry of artifact ${owner.artifactId}; delete the artifact instead`);
      }
      throw await missing(workspaceId, `Memory ${memoryId} not found`);
    },

    /**
     * A skill, enabled or not, with its files, then the stored bytes no other file of the
     * workspace points at. The rows go first: once they are gone no endpoint serves the files. A
     * store that fails then leaves bytes behind, which is logged (in the database storage,
     * housekeeping removes blobs no file points at within the hour).
     */
    async deleteSkill(workspaceId: string, name: string): Promise<void> {
      const unused = await deps.skills.deleteByName(workspaceId, name);
      if (unused === null) throw await missing(workspaceId, `No skill named "${name}" in this workspace`);
      try {
        await deps.storage.remove(unused);
      } catch (error) {
        deps.logger.warn({ err: error, workspaceId, skill: name, storageKeys: unused }, "skill deleted, but its stored files could not be removed");
      }
    },

    /** A data source with its query patterns and error learnings. */
    async deleteDataSource(workspaceId: string, name: string): Promise<void> {
      if (!(await deps.dataSources.deleteByName(workspaceId, name))) throw await missing(workspaceId, `No data source named "${name}" in this workspace`);
      // Its table annotations and column names may have given the vocabulary pairs.
      deps.vocabulary.forget(workspaceId);
    },
  };
}

export type DeletionService = ReturnType<typeof createDeletionService>;
