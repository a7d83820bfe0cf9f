import { createHash } from "node:crypto";
import type { ImportCounts, ImportDataSource, ImportDocument, ImportSkill } from "../contracts/import";
import type { DbTx } from "../db/database";
import { notFound } from "../domain/errors";
import type { Clock } from "../lib/clock";
import type { Logger } from "../lib/logger";
import type { DataSourceRepository } from "../repositories/data-source.repository";
import type { DirectiveRepository } from "../repositories/directive.repository";
import type { MemoryRepository } from "../repositories/memory.repository";
import type { QueryIntelligenceRepository } from "../repositories/query-intelligence.repository";
import type { SkillRepository, SkillUpsert } from "../repositories/skill.repository";
import type { WorkspaceRepository } from "../repositories/workspace.repository";
import type { EmbeddingIndexer } from "../indexing/embedding-indexer";
import type { FileStorage } from "../storage/file-storage";
import { importArtifacts } from "./artifact-import";
import { contentTypeOf, inferSkillFileKind } from "./skill-file-kind";
import { callStorage } from "./storage-call";

/** The repositories of one transaction, and the transaction itself for the artifact import. */
export interface ImportUnitOfWork {
  tx: DbTx;
  workspaces: Pick<WorkspaceRepository, "update" | "lockForWriting">;
  directives: Pick<DirectiveRepository, "upsertByName">;
  memories: Pick<MemoryRepository, "appendMany">;
  dataSources: Pick<DataSourceRepository, "upsertByName">;
  queryIntelligence: Pick<QueryIntelligenceRepository, "replaceForSource">;
  skills: Pick<SkillRepository, "upsertByName">;
}

export interface ImportResult {
  imported: ImportCounts;
  artifactIds: string[];
}

const toDate = (value: number | string | undefined, now: Date) => (value === undefined ? now : new Date(value));

export function createImportService(deps: {
  workspaces: Pick<WorkspaceRepository, "findById">;
  inTransaction: <T>(work: (unit: ImportUnitOfWork) => Promise<T>) => Promise<T>;
  storage: Pick<FileStorage, "put">;
  indexer: Pick<EmbeddingIndexer, "wake">;
  clock: Clock;
  logger: Logger;
}) {
  /**
   * Puts every skill file's bytes in storage before the transaction, under a key derived from the
   * workspace and the bytes' digest: writing them twice is harmless, and a failed transaction
   * leaves only unreferenced blobs behind, never a file row without bytes.
   */
  async function storeSkillFiles(workspaceId: string, skills: ImportSkill[]): Promise<SkillUpsert[]> {
    const stored: SkillUpsert[] = [];
    for (const { files, ...skill } of skills) {
      const entries: SkillUpsert["files"] = [];
      for (const file of files) {
        const bytes = file.contentBase64 === undefined ? Buffer.from(file.content ?? "", "utf8") : Buffer.from(file.contentBase64, "base64");
        const kind = file.kind ?? inferSkillFileKind(file.path, bytes);
        const contentType = contentTypeOf(file.path, kind);
        const storageKey = `workspaces/${workspaceId}/skill-files/${createHash("sha256").update(bytes).digest("hex")}`;
        await callStorage(deps.logger, { workspaceId, storageKey }, () => deps.storage.put(storageKey, bytes, contentType));
        entries.push({ path: file.path, kind, size: bytes.length, contentType, storageKey });
      }
      stored.push({ ...skill, allowedTools: skill.allowedTools ?? [], compatibility: skill.compatibility ?? null, files: entries });
    }
    return stored;
  }

  async function importDataSource(unit: ImportUnitOfWork, workspaceId: string, source: ImportDataSource, now: Date) {
    const { queryPatterns = [], errorLearnings = [], ...metadata } = source;
    const dataSourceId = await unit.dataSources.upsertByName(workspaceId, { ...metadata, createdAt: toDate(source.createdAt, now) });
    await unit.queryIntelligence.replaceForSource(
      workspaceId,
      dataSourceId,
      queryPatterns.map((pattern) => ({
        question: pattern.question,
        sql: pattern.sql,
        resultSummary: pattern.resultSummary ?? null,
        successCount: pattern.successCount,
        lastUsedAt: pattern.lastUsedAt === undefined ? null : new Date(pattern.lastUsedAt),
        createdAt: now,
      })),
      errorLearnings.map((learning) => ({ ...learning, createdAt: toDate(learning.createdAt, now) })),
    );
    return { queryPatterns: queryPatterns.length, errorLearnings: errorLearnings.length };
  }

  return {
    /**
     * Loads an import document in one transaction: all of it or nothing. Vectors are left pending
     * and the indexer is woken afterwards, so the import never waits for the embeddings provider.
     */
    async importDocument(workspaceId: string, document: ImportDocument): Promise<ImportResult> {
      if (!(await deps.workspaces.findById(workspaceId))) throw notFound(`Workspace ${workspaceId} not found`);
      const now = deps.clock.now();
      const skills = await storeSkillFiles(workspaceId, document.skills ?? []);
      const result = await deps.inTransaction(async (unit): Promise<ImportResult> => {
        await unit.workspaces.lockForWriting(workspaceId);
        if (document.context !== undefined) await unit.workspaces.update(workspaceId, { context: document.context });
        for (const directive of document.directives ?? []) await unit.directives.upsertByName(workspaceId, directive);
        const memories = await unit.memories.appendMany(
          workspaceId,
          (document.memories ?? []).map((memory) => ({ ...memory, createdAt: toDate(memory.createdAt, now) })),
        );
        let queryPatterns = 0;
        let errorLearnings = 0;
        for (const source of document.dataSources ?? []) {
          const counts = await importDataSource(unit, workspaceId, source, now);
          queryPatterns += counts.queryPatterns;
          errorLearnings += counts.errorLearnings;
        }
        for (const skill of skills) await unit.skills.upsertByName(workspaceId, skill);
        const artifacts = (document.artifacts ?? []).map((artifact) => ({
          ...artifact,
          createdAt: toDate(artifact.createdAt, now).getTime(),
          validatedAt: artifact.validatedAt === undefined ? undefined : new Date(artifact.validatedAt).getTime(),
          disputedAt: artifact.disputedAt === undefined ? undefined : new Date(artifact.disputedAt).getTime(),
        }));
        const artifactIds = await importArtifacts(unit.tx, workspaceId, artifacts, now);
        return {
          imported: {
            context: document.context === undefined ? 0 : 1,
            directives: document.directives?.length ?? 0,
            memories,
            dataSources: document.dataSources?.length ?? 0,
            queryPatterns,
            errorLearnings,
            skills: skills.length,
            skillFiles: skills.reduce((sum, skill) => sum + skill.files.length, 0),
            artifacts: artifactIds.length,
          },
          artifactIds,
        };
      });
      deps.indexer.wake();
      return result;
    },
  };
}

export type ImportService = ReturnType<typeof createImportService>;
