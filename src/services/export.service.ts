import { notFound } from "../domain/errors";
import { spoolText, type SpooledText } from "../lib/text-spool";
import type { Logger } from "../lib/logger";
import type { ArtifactRepository, ExportedArtifactRecord } from "../repositories/artifact.repository";
import type { DataSourceRecord, DataSourceRepository } from "../repositories/data-source.repository";
import type { DirectiveRecord, DirectiveRepository } from "../repositories/directive.repository";
import type { LedgerMemoryRecord, MemoryRepository } from "../repositories/memory.repository";
import type { ErrorLearningRecord, QueryIntelligenceRepository, QueryPatternRecord } from "../repositories/query-intelligence.repository";
import type { SkillFileRecord, SkillRepository, SkillUpsert } from "../repositories/skill.repository";
import type { WorkspaceRecord, WorkspaceRepository } from "../repositories/workspace.repository";
import type { FileStorage } from "../storage/file-storage";
import { DomainError } from "../domain/errors";
import { callStorage } from "./storage-call";

/** Rows read a statement at a time: artifacts carry their bodies (up to about 1 MiB each), so fewer of them. */
export const EXPORT_PAGE = { artifacts: 100, memories: 1_000 } as const;

export interface ExportedDataSource extends DataSourceRecord {
  patterns: QueryPatternRecord[];
  learnings: ErrorLearningRecord[];
}

export interface ExportedSkillFile extends SkillFileRecord {
  bytes: Uint8Array;
}

export interface ExportedSkill extends Omit<SkillUpsert, "files"> {
  files: ExportedSkillFile[];
}

/**
 * A workspace as an export reads it: the small sections at once (so that a problem with them
 * is found before anything else is read), the large ones as pages read while the document is written.
 */
export interface WorkspaceExport {
  workspace: WorkspaceRecord;
  directives: DirectiveRecord[];
  dataSources: ExportedDataSource[];
  skills: Array<Omit<SkillUpsert, "files"> & { files: SkillFileRecord[] }>;
  /** Each skill with its files' bytes, read from the file storage one skill at a time. */
  skillsWithBytes(): AsyncIterable<ExportedSkill>;
  memories(): AsyncIterable<LedgerMemoryRecord>;
  artifacts(): AsyncIterable<ExportedArtifactRecord>;
}

/** What an export reads, every one of them in the same snapshot of the database. */
export interface ExportReaders {
  workspaces: Pick<WorkspaceRepository, "findById">;
  directives: Pick<DirectiveRepository, "listByWorkspace">;
  dataSources: Pick<DataSourceRepository, "listByWorkspace">;
  queryIntelligence: Pick<QueryIntelligenceRepository, "listForSource">;
  skills: Pick<SkillRepository, "listForExport">;
  memories: Pick<MemoryRepository, "exportLedgerPage">;
  artifacts: Pick<ArtifactRepository, "exportPage">;
  /** The database storage's bytes are rows too, read in the same snapshot. */
  storage: Pick<FileStorage, "get">;
}

async function* pages<T extends { id: string }>(read: (afterId: string | undefined) => Promise<T[]>, size: number): AsyncGenerator<T> {
  let afterId: string | undefined;
  for (;;) {
    const page = await read(afterId);
    yield* page;
    if (page.length < size) return;
    afterId = page[page.length - 1]!.id;
  }
}

async function readWorkspace(readers: ExportReaders, workspaceId: string, logger: Logger): Promise<WorkspaceExport> {
  const workspace = await readers.workspaces.findById(workspaceId);
  if (!workspace) throw notFound(`Workspace ${workspaceId} not found`);
  const directives = await readers.directives.listByWorkspace(workspaceId);
  const sources = await readers.dataSources.listByWorkspace(workspaceId);
  const skills = await readers.skills.listForExport(workspaceId);
  const dataSources: ExportedDataSource[] = [];
  for (const source of sources) dataSources.push({ ...source, ...(await readers.queryIntelligence.listForSource(workspaceId, source.id)) });
  return {
    workspace,
    directives,
    dataSources,
    skills,
    async *skillsWithBytes() {
      for (const skill of skills) {
        const files: ExportedSkillFile[] = [];
        for (const file of skill.files) {
          const bytes = await callStorage(logger, { workspaceId, storageKey: file.storageKey }, () => readers.storage.get(file.storageKey));
          if (!bytes) throw new DomainError("dependency_failed", `File storage does not hold the bytes of "${file.path}" of skill "${skill.name}"`);
          files.push({ ...file, bytes });
        }
        yield { ...skill, files };
      }
    },
    memories: () => pages((afterId) => readers.memories.exportLedgerPage(workspaceId, { afterId, take: EXPORT_PAGE.memories }), EXPORT_PAGE.memories),
    artifacts: () => pages((afterId) => readers.artifacts.exportPage(workspaceId, { afterId, take: EXPORT_PAGE.artifacts }), EXPORT_PAGE.artifacts),
  };
}

/**
 * Reads a workspace in the import document's terms (docs/operations.md, "Export"). Not
 * exported: API keys, reviewers, sessions, OAuth grants, vectors (the indexer makes them again),
 * idempotency records, a data source's connection reference.
 */
export function createExportService(deps: {
  /** Runs `read` over readers that all see the database as it was at one moment. */
  inSnapshot: <T>(read: (readers: ExportReaders) => Promise<T>) => Promise<T>;
  logger: Logger;
  /** Where written documents wait for their clients; the system's temporary directory by default. */
  spoolDir?: string;
}) {
  return {
    /**
     * The workspace at one moment, written by `write` in full before this resolves: the snapshot
     * is held while the database is read, never while a client reads the document, and whatever
     * is refused (an unknown workspace, an entry `write` rejects, storage unreachable) is refused
     * before the first byte is sent.
     */
    async snapshot(workspaceId: string, write: (exported: WorkspaceExport) => AsyncIterable<string>): Promise<SpooledText> {
      return deps.inSnapshot(async (readers) => spoolText(write(await readWorkspace(readers, workspaceId, deps.logger)), deps.spoolDir));
    },
  };
}

export type ExportService = ReturnType<typeof createExportService>;

/** The records this service answers with, for adapters, which never import a repository. */
export type { ExportedArtifactRecord, LedgerMemoryRecord, SpooledText };
