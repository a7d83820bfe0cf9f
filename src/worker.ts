// First: telemetry, when on, must instrument pg and pino before anything loads them.
import { startedTelemetry } from "./telemetry/preload-worker";
import "dotenv/config";
import { ConfigError, loadConfig } from "./config";
import { postgresDatabase } from "./db/database";
import { assertDatabaseReady, DatabaseNotReadyError, explainConnectionFailure } from "./db/database-readiness";
import { createEmbeddingsProvider } from "./embeddings/create-embeddings";
import { createHousekeeping } from "./jobs/housekeeping";
import { systemClock } from "./lib/clock";
import { createLogger } from "./lib/logger";
import { createVectorIndexRepository } from "./repositories/vector-index.repository";
import { EmbeddingIndexer } from "./indexing/embedding-indexer";
import { pendingRowsNotices } from "./indexing/pending-rows-notice";
import { createVectorIndexMaintenance } from "./indexing/vector-index-maintenance";
import { observeEmbeddingBacklog } from "./telemetry/instruments";
import { describeTelemetry } from "./telemetry/telemetry-summary";

// The `worker` process type (`node dist/worker.js`): background work of a PostgreSQL deployment,
// so that web processes only answer requests (INDEXER=worker). Any number may run: the indexer's
// claims keep them from sharing a row. Each job has start() and stop(); stop() abandons work in flight.

const SHUTDOWN_DEADLINE_MS = 9_500;
// While writers' notices do not arrive (pending-rows-notice.ts), a worker looks for new rows every
// second: web processes have no other way to wake it.
const WORKER_POLL_MS = 1_000;
// No client waits on the worker's statements (index builds set none at all); this only bounds one
// stuck on a Citus worker that hangs, after which the job tries again.
const WORKER_STATEMENT_TIMEOUT_MS = 60_000;

interface BackgroundJob {
  start(): void;
  stop(): Promise<void>;
}

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  if (!config.databaseUrl) {
    throw new ConfigError(["DATABASE_URL: the worker needs the shared PostgreSQL; on the embedded database the server indexes by itself"]);
  }
  const database = postgresDatabase(config.databaseUrl, {
    poolSize: config.databasePoolSize,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    statementTimeoutMs: WORKER_STATEMENT_TIMEOUT_MS,
    logger,
  });
  // As the web process does: never work on a schema that lacks a migration or an old pgvector.
  const databaseUrl = config.databaseUrl;
  await assertDatabaseReady(database.executor).catch((error: unknown) => {
    throw explainConnectionFailure(error, databaseUrl);
  });
  const embeddings = createEmbeddingsProvider(config.embeddings);
  const indexer = new EmbeddingIndexer(database.prisma, embeddings, logger, { idlePollMs: WORKER_POLL_MS });
  observeEmbeddingBacklog(() => indexer.backlog());
  const jobs: BackgroundJob[] = [
    indexer,
    pendingRowsNotices(indexer, { connectionString: config.databaseUrl, db: database.prisma, logger }),
    createHousekeeping({ db: database.prisma, clock: systemClock, logger }),
    createVectorIndexMaintenance({
      vectorIndexes: createVectorIndexRepository(database.prisma, { buildSession: database.onOneConnection, buildMemoryCapMb: config.indexBuildMemoryMb }),
      logger,
      engine: database.kind,
    }),
  ];
  for (const job of jobs) job.start();
  logger.info({ model: embeddings.model, telemetry: describeTelemetry(config.telemetry) }, "worker started: embedding pending rows, workspaces' own vector indexes, housekeeping");

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "worker stopping: abandoning work in flight");
    setTimeout(() => process.exit(1), SHUTDOWN_DEADLINE_MS).unref();
    try {
      await Promise.all(jobs.map((job) => job.stop()));
      await embeddings.close();
      await database.close();
      await startedTelemetry()?.shutdown();
      logger.info("stopped");
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, "error while stopping the worker");
      process.exit(1);
    }
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError || error instanceof DatabaseNotReadyError ? error.message : error);
  process.exit(1);
});
