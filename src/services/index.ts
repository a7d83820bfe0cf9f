import type { Database } from "../db/database";
import type { EmbeddingsProvider } from "../embeddings/embeddings-provider";
import type { Clock } from "../lib/clock";
import type { Logger } from "../lib/logger";
import { createApiKeyRepository } from "../repositories/api-key.repository";
import { createWorkspaceRepository } from "../repositories/workspace.repository";
import { createApiKeyService } from "./api-key.service";
import { createWorkspaceService } from "./workspace.service";
import { EmbeddingIndexer } from "../search/embedding-indexer";

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
  return {
    database,
    embeddings,
    indexer: new EmbeddingIndexer(db, embeddings, logger),
    workspaces: createWorkspaceService({ workspaces }),
    apiKeys: createApiKeyService({ apiKeys, workspaces, clock, logger }),
  };
}

export type Services = ReturnType<typeof createServices>;
