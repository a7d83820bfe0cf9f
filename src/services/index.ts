import { DEFAULT_DOWNLOAD_URL_TTL_SECONDS, type Config } from "../config";
import type { Database, DbTx } from "../db/database";
import { allowLongStatements, inReadOnlySnapshot } from "../db/read-only-snapshot";
import type { EmbeddingsProvider } from "../embeddings/embeddings-provider";
import type { Clock } from "../lib/clock";
import type { Logger } from "../lib/logger";
import { createApiKeyRepository } from "../repositories/api-key.repository";
import { createArtifactRepository } from "../repositories/artifact.repository";
import { createArtifactDetailRepository } from "../repositories/artifact-detail.repository";
import { createQueryVectorCache } from "../search/query-vector-cache";
import { createArtifactSearchRepository } from "../repositories/artifact-search.repository";
import { createArtifactVectorsInProcess } from "../repositories/artifact-vectors-in-process";
import { createDataSourceRepository } from "../repositories/data-source.repository";
import { createDirectiveRepository } from "../repositories/directive.repository";
import { createArtifactPushRepository } from "../repositories/artifact-push.repository";
import { createIdempotencyRepository } from "../repositories/idempotency.repository";
import { createMemoryRepository } from "../repositories/memory.repository";
import { createQueryIntelligenceRepository } from "../repositories/query-intelligence.repository";
import { createSkillRepository } from "../repositories/skill.repository";
import { createStoredBlobRepository } from "../repositories/stored-blob.repository";
import { createWorkspaceRepository } from "../repositories/workspace.repository";
import { createFileStorage } from "../storage/create-file-storage";
import { createDownloadSigner } from "../storage/download-token";
import { createApiKeyService } from "./api-key.service";
import { createArtifactService } from "./artifact.service";
import { createBriefingService } from "./briefing.service";
import { createDataSourceService } from "./data-source.service";
import { createDownloadService } from "./download.service";
import { createImportService, type ImportUnitOfWork } from "./import.service";
import { createMemoryService } from "./memory.service";
import { createNameCheckService } from "./name-check.service";
import { createReviewService } from "./review.service";
import { createReviewerService } from "./reviewer.service";
import { createReviewerRepository } from "../repositories/reviewer.repository";
import { createSkillService } from "./skill.service";
import { createWorkspaceService } from "./workspace.service";
import { createConnectedAppService } from "./connected-app.service";
import { createOAuthStoreService } from "./oauth-store.service";
import { createConnectedAppRepository } from "../repositories/connected-app.repository";
import { createOAuthRecordRepository } from "../repositories/oauth-record.repository";
import { announcePendingRows } from "../indexing/pending-rows-notice";
import { EmbeddingIndexer, type IndexerOptions } from "../indexing/embedding-indexer";
import { createWorkspaceVocabulary } from "../search/workspace-vocabulary";
import { createVocabularyRepository } from "../repositories/vocabulary.repository";
import { createVectorIndexRepository } from "../repositories/vector-index.repository";
import { createVectorIndexMaintenance } from "../indexing/vector-index-maintenance";
import { createWorkspacePlacementRepository } from "../repositories/workspace-placement.repository";
import { createWorkspacePlacementService } from "./workspace-placement.service";
import { ownIndexStates } from "../indexing/own-index-states";
import { createWorkspacePurgeRepository } from "../repositories/workspace-purge.repository";
import { createDeletionService } from "./deletion.service";
import { createExportService, type ExportReaders } from "./export.service";
import { createWorkspaceDeletionService } from "./workspace-deletion.service";

export type FileSettings = Pick<Config, "fileStorage" | "signingSecret" | "publicBaseUrl" | "downloadUrlTtlSeconds">;

export const DEFAULT_FILE_SETTINGS: FileSettings = {
  fileStorage: { kind: "database" },
  signingSecret: undefined,
  publicBaseUrl: undefined,
  downloadUrlTtlSeconds: DEFAULT_DOWNLOAD_URL_TTL_SECONDS,
};

export interface ServiceDeps {
  database: Database;
  clock: Clock;
  logger: Logger;
  embeddings: EmbeddingsProvider;
  files?: FileSettings;
  indexer?: Partial<IndexerOptions>;
  /** See Config.apiKeyCacheTtlMs; the default when absent. */
  apiKeyCacheTtlMs?: number;
  /** See Config.indexBuildMemoryMb; the default when absent. */
  indexBuildMemoryMb?: number;
  /** See Config.queryEmbeddingCacheEntries; the default when absent, 0 for none. */
  queryEmbeddingCacheEntries?: number;
}

// A large import document runs well past Prisma's 5-second default for interactive transactions.
const IMPORT_TRANSACTION = { maxWait: 10_000, timeout: 120_000 };
// Deleting a workspace of 100,000 artifacts is one transaction too (docs/decisions.md, "Export and deletion").
const PURGE_TRANSACTION = { maxWait: 10_000, timeout: 600_000 };
// An export's snapshot is held while its document is written to a file, at the database's pace (a
// workspace of 100,000 artifacts: tens of seconds), never while a client downloads it.
const EXPORT_TRANSACTION = { maxWait: 10_000, timeout: 600_000 };

/** Wires repositories into services; the one place that knows the whole graph. */
export function createServices({ database, clock, logger, embeddings, files = DEFAULT_FILE_SETTINGS, indexer: indexerOptions, apiKeyCacheTtlMs, indexBuildMemoryMb, queryEmbeddingCacheEntries }: ServiceDeps) {
  const db = database.prisma;
  const workspaces = createWorkspaceRepository(db);
  const apiKeys = createApiKeyRepository(db);
  const artifacts = createArtifactRepository(db);
  // The directive store is its own dependency so that the briefing can survive it failing.
  const directives = createDirectiveRepository(db);
  // One list of the workspaces' own vector indexes for every search, so that one cache serves them.
  const vectorIndexes = createVectorIndexRepository(db, { engine: database.kind, buildSession: database.onOneConnection, buildMemoryCapMb: indexBuildMemoryMb });
  const memories = createMemoryRepository(db, vectorIndexes);
  const signer = createDownloadSigner(files.signingSecret);
  const storage = createFileStorage(files.fileStorage, {
    blobs: createStoredBlobRepository(db),
    signer,
    clock,
    publicBaseUrl: files.publicBaseUrl,
  });
  // The embedded engine is one connection: vectors are stored a few rows a statement, so that a
  // request waits for at most one small UPDATE. On PostgreSQL other processes may index (workers,
  // other web processes): writes are announced to them.
  const indexer = new EmbeddingIndexer(db, embeddings, logger, {
    ...(database.kind === "embedded" ? { storeRows: 4 } : { announce: (from: string) => announcePendingRows(db, from) }),
    ...indexerOptions,
  });
  const dataSourceRepository = createDataSourceRepository(db);
  const skillRepository = createSkillRepository(db);
  const vocabulary = createWorkspaceVocabulary(createVocabularyRepository(db));
  // The embedded engine's workspaces' vectors, compared in the process (its one thread is the search's bottleneck).
  const artifactVectors = database.inProcess ? createArtifactVectorsInProcess(database.executor, database.inProcess) : undefined;
  // Without it every search runs its statement, as it always could: worth a line, not a failure.
  artifactVectors?.started.catch((error: unknown) => logger.warn({ err: error }, "searches will scan vectors by statement: their changes could not be followed"));
  // One cache of query vectors for every search of the process.
  const queryVectors = createQueryVectorCache(queryEmbeddingCacheEntries);
  const inTransaction = <T>(work: (unit: ImportUnitOfWork) => Promise<T>) =>
    db.$transaction(async (tx) => {
      await allowLongStatements(tx, IMPORT_TRANSACTION.timeout);
      return work(repositoriesOf(tx));
    }, IMPORT_TRANSACTION);
  const oauthStore = createOAuthStoreService({ records: createOAuthRecordRepository(db), clock });
  const apiKeyService = createApiKeyService({ apiKeys, nodes: database.nodes, workspaces, clock, logger, cacheTtlMs: apiKeyCacheTtlMs });
  const connectedApps = createConnectedAppService({ apps: createConnectedAppRepository(db), nodes: database.nodes, workspaces, store: oauthStore, clock, logger, cacheTtlMs: apiKeyCacheTtlMs });
  const queryIntelligence = createQueryIntelligenceRepository(db, vectorIndexes);
  // The database storage reads its bytes on the snapshot's own connection: in the same moment, and
  // on the embedded engine, whose one connection the snapshot holds, the only way to read them.
  const storageIn = (tx: DbTx) =>
    files.fileStorage.kind === "database"
      ? createFileStorage(files.fileStorage, { blobs: createStoredBlobRepository(tx), signer, clock, publicBaseUrl: files.publicBaseUrl })
      : storage;
  const vectorIndexMaintenance = createVectorIndexMaintenance({ vectorIndexes, logger, engine: database.kind });
  return {
    database,
    embeddings,
    indexer,
    /** Each workspace's vocabulary (cached per process): the evaluation reads it afresh between settings. */
    vocabulary,
    vectorIndexMaintenance,
    /** The workspaces' artifact vectors held in the process (the embedded engine only), for tests to see what is held. */
    artifactVectors,
    /** How each kind of a workspace's rows is searched: its own vector index, built or not (admin index state). */
    ownIndexStates: (workspaceId: string) => ownIndexStates(vectorIndexes, workspaceId),
    storage,
    directives,
    workspaces: createWorkspaceService({ workspaces }),
    apiKeys: apiKeyService,
    oauthStore,
    connectedApps,
    artifacts: createArtifactService({
      artifacts,
      pushes: createArtifactPushRepository(database.executor),
      details: createArtifactDetailRepository(database.executor),
      search: createArtifactSearchRepository(db, vectorIndexes, { driver: database.executor, named: () => !database.nodes.watching(), inProcess: artifactVectors }),
      idempotency: createIdempotencyRepository(db),
      embeddings,
      clock,
      logger,
      vocabulary,
      queryVectors,
    }),
    review: createReviewService({
      artifacts,
      workspaces,
      inTransaction: (fn) => db.$transaction((tx) => fn(createArtifactRepository(tx))),
      wakeIndexer: () => indexer.wake(),
      clock,
    }),
    reviewers: createReviewerService({ reviewers: createReviewerRepository(db), workspaces, clock }),
    briefing: createBriefingService({ workspaces, directives, memories, logger }),
    memories: createMemoryService({ memories, embeddings, logger, vocabulary, queryVectors }),
    dataSources: createDataSourceService({
      dataSources: dataSourceRepository,
      queryIntelligence,
      embeddings,
      logger,
      vocabulary,
      queryVectors,
    }),
    skills: createSkillService({
      skills: skillRepository,
      storage,
      downloadUrlTtlSeconds: files.downloadUrlTtlSeconds,
      logger,
    }),
    downloads: createDownloadService({ signer, storage, clock, logger }),
    names: createNameCheckService({ workspaces, skills: skillRepository, dataSources: dataSourceRepository }),
    imports: createImportService({ workspaces, inTransaction, storage, indexer, clock, logger }),
    exports: createExportService({
      inSnapshot: (read) => inReadOnlySnapshot(db, (tx) => read(exportReadersOf(tx, storageIn(tx))), EXPORT_TRANSACTION),
      logger,
    }),
    deletions: createDeletionService({
      workspaces,
      artifacts,
      memories,
      skills: skillRepository,
      dataSources: dataSourceRepository,
      storage,
      vocabulary,
      logger,
    }),
    workspacePlacement: createWorkspacePlacementService({
      placement: createWorkspacePlacementRepository(db, database.onOneConnection),
      workspaces,
      vectorIndexes,
      buildOwnIndexes: (workspaceId) => vectorIndexMaintenance.buildFor(workspaceId),
      logger,
    }),
    workspaceDeletion: createWorkspaceDeletionService({
      inTransaction: (work) =>
        db.$transaction(async (tx) => {
          await allowLongStatements(tx, PURGE_TRANSACTION.timeout);
          return work(createWorkspacePurgeRepository(tx));
        }, PURGE_TRANSACTION),
      vectorIndexes,
      concurrentIndexDrops: database.kind === "postgres",
      storage,
      forget: [apiKeyService.forgetWorkspace, connectedApps.forgetWorkspace],
      vocabulary,
      logger,
    }),
  };
}

function repositoriesOf(tx: DbTx): ImportUnitOfWork {
  return {
    tx,
    workspaces: createWorkspaceRepository(tx),
    directives: createDirectiveRepository(tx),
    memories: createMemoryRepository(tx),
    dataSources: createDataSourceRepository(tx),
    queryIntelligence: createQueryIntelligenceRepository(tx),
    skills: createSkillRepository(tx),
  };
}

function exportReadersOf(tx: DbTx, storage: ExportReaders["storage"]): ExportReaders {
  return {
    workspaces: createWorkspaceRepository(tx),
    directives: createDirectiveRepository(tx),
    dataSources: createDataSourceRepository(tx),
    queryIntelligence: createQueryIntelligenceRepository(tx),
    skills: createSkillRepository(tx),
    memories: createMemoryRepository(tx),
    artifacts: createArtifactRepository(tx),
    storage,
  };
}

export type Services = ReturnType<typeof createServices>;
