import type { Database } from "../db/database";
import type { EmbeddingsProvider } from "../embeddings/embeddings-provider";
import type { Clock } from "../lib/clock";
import type { Logger } from "../lib/logger";
import { createApiKeyRepository } from "../repositories/api-key.repository";
import { createArtifactRepository } from "../repositories/artifact.repository";
import { createArtifactSearchRepository } from "../repositories/artifact-search.repository";
import { createIdempotencyRepository } from "../repositories/idempotency.repository";
import { createWorkspaceRepository } from "../repositories/workspace.repository";
import { EmbeddingIndexer } from "../search/embedding-indexer";
import { createApiKeyService } from "./api-key.service";
import { createArtifactService } from "./artifact.service";
import { createReviewService } from "./review.service";
import { createWorkspaceService } from "./workspace.service";

export interface ServiceDeps {
  database: Database;
  clock: Clock;
  logger: Logger;
  embeddings: EmbeddingsProvider;
}

/** Wires repositories into services; the one place that knows the whole graph. */
export function createServices({ database, clock, logger, embeddings }: ServiceDeps) {
  const db = database.prisma;
  const workspaces = createWorkspaceRepository(db);
  const apiKeys = createApiKeyRepository(db);
  const artifacts = createArtifactRepository(db);
  const indexer = new EmbeddingIndexer(db, embeddings, logger);
  return {
    database,
    embeddings,
    indexer,
    workspaces: createWorkspaceService({ workspaces }),
    reindex: (workspaceId: string) => indexer.reindexWorkspace(workspaceId),
    apiKeys: createApiKeyService({ apiKeys, workspaces, clock, logger }),
    artifacts: createArtifactService({
      artifacts,
      search: createArtifactSearchRepository(db),
      idempotency: createIdempotencyRepository(db),
      inTransaction: (fn) =>
        db.$transaction((tx) => fn({ artifacts: createArtifactRepository(tx), idempotency: createIdempotencyRepository(tx) })),
      embeddings,
      wakeIndexer: () => indexer.wake(),
      clock,
      logger,
    }),
    review: createReviewService({
      artifacts,
      workspaces,
      inTransaction: (fn) => db.$transaction((tx) => fn(createArtifactRepository(tx))),
      clock,
    }),
  };
}

export type Services = ReturnType<typeof createServices>;
