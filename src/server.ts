// First: telemetry, when on, must instrument http, Express, pg and pino before anything loads them.
import { startedTelemetry } from "./telemetry/preload-web";
import { readFileSync } from "node:fs";
import "dotenv/config";
import type { AddressInfo } from "node:net";
import { startupBanner } from "./bootstrap/banner";
import { setUpFirstRun } from "./bootstrap/first-run";
import { clearRunningServer, loadOrCreateLocalAdminToken, writeRunningServer } from "./bootstrap/local-files";
import { buildApp } from "./app";
import { ConfigError, loadConfig } from "./config";
import { DatabaseNotReadyError } from "./db/database-readiness";
import { DataDirLockedError } from "./db/embedded-database";
import { openDatabase } from "./db/open-database";
import { createEmbeddingsProvider } from "./embeddings/create-embeddings";
import { pendingRowsNotices } from "./indexing/pending-rows-notice";
import { createHousekeeping } from "./jobs/housekeeping";
import { answerClientErrorsAsJson } from "./http/percent-encoding";
import { systemClock } from "./lib/clock";
import { createLogger } from "./lib/logger";
import { createServices } from "./services";
import { observeEmbeddingBacklog, observeNodeReachability } from "./telemetry/instruments";
import { describeTelemetry } from "./telemetry/telemetry-summary";

// Requests in flight get this long after SIGTERM; the process is gone by the deadline whatever
// hangs (the platform kills at 30 s, and a deploy waits for us).
const REQUEST_GRACE_MS = 7_000;
const SHUTDOWN_DEADLINE_MS = 9_500;

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const database = await openDatabase(config, logger);
  const embedded = database.kind === "embedded";
  const indexInProcess = config.indexer === "in-process";
  // With INDEXER=worker this process embeds queries only: no index threads, no copies of the model for them.
  const embeddings = createEmbeddingsProvider(config.embeddings, { indexes: indexInProcess });
  const services = createServices({
    database,
    clock: systemClock,
    logger,
    embeddings,
    files: config,
    indexer: { reindexInline: indexInProcess },
    apiKeyCacheTtlMs: config.apiKeyCacheTtlMs,
    queryEmbeddingCacheEntries: config.queryEmbeddingCacheEntries,
    indexBuildMemoryMb: config.indexBuildMemoryMb,
  });

  // First-run conveniences belong to a developer's embedded database, never to a managed one.
  const firstRun = embedded ? await setUpFirstRun(services) : undefined;
  const localAdminToken = config.adminToken === undefined && embedded ? loadOrCreateLocalAdminToken(config.dataDir) : undefined;
  const adminToken = config.adminToken ?? localAdminToken?.token;

  // Other web processes' writes reach this one's indexer as notices (PostgreSQL only).
  const notices =
    indexInProcess && config.databaseUrl ? pendingRowsNotices(services.indexer, { connectionString: config.databaseUrl, db: database.prisma, logger }) : undefined;
  if (indexInProcess) {
    services.indexer.start();
    notices?.start();
    // The backlog is the database's; the processes that index report it.
    observeEmbeddingBacklog(() => services.indexer.backlog());
  }
  const telemetry = startedTelemetry();
  observeNodeReachability(() => database.nodes.known());
  // With INDEXER=worker the worker processes do the background work, housekeeping included.
  const housekeeping = createHousekeeping({ db: database.prisma, clock: systemClock, logger, refreshPlannerStatistics: embedded });
  if (indexInProcess) {
    housekeeping.start();
    services.vectorIndexMaintenance.start();
  }
  const app = buildApp({
    services,
    logger,
    adminToken,
    publicBaseUrl: config.publicBaseUrl,
    trustProxy: config.trustProxy,
    rateLimits: config.rateLimits,
    signingSecret: config.signingSecret,
    maxOAuthClients: config.oauthMaxClients,
    clientMetadataCa: config.oauthClientMetadataCaFile ? readCaFile(config.oauthClientMetadataCaFile) : undefined,
    metrics: telemetry?.prometheus && config.telemetry.metricsToken ? { token: config.telemetry.metricsToken, serve: telemetry.prometheus.handle } : undefined,
    checkResponses: config.checkResponses,
  });
  const server = app.listen(config.port, config.host);
  answerClientErrorsAsJson(server);
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  const { address, port } = server.address() as AddressInfo;
  if (embedded) writeRunningServer(config.dataDir, { pid: process.pid, port, address });
  const telemetryState = describeTelemetry(config.telemetry);
  logger.info({ address, port, database: database.kind, telemetry: telemetryState }, "listening");
  // Log lines wait up to LOG_BATCH_DELAY_MS: the listening line, which a watcher looks for, is
  // handed over now rather than held back behind the banner.
  logger.flush();
  console.log(
    startupBanner({
      baseUrl: config.publicBaseUrl ?? `http://localhost:${port}`,
      database: embedded ? `embedded Postgres in ${config.dataDir}` : "PostgreSQL at DATABASE_URL",
      adminToken,
      localAdminToken,
      firstRun,
      telemetry: telemetryState,
    }),
  );

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down: no new connections, finishing requests in flight");
    const deadline = setTimeout(() => {
      logger.error("shutdown passed its deadline; exiting");
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    deadline.unref();
    // Background work stops now, not after the requests: the index batch in flight is abandoned
    // (its rows stay pending) and a housekeeping pass ends after its current statement.
    const backgroundStopped = Promise.all([services.indexer.stop(), notices?.stop(), housekeeping.stop(), services.vectorIndexMaintenance.stop()]);
    const force = setTimeout(() => server.closeAllConnections(), REQUEST_GRACE_MS);
    force.unref();
    server.close(async () => {
      clearTimeout(force);
      try {
        if (embedded) clearRunningServer(config.dataDir);
        await backgroundStopped;
        await embeddings.close();
        await database.close();
        // The spans and metrics of the last requests, sent before the exit.
        await telemetry?.shutdown();
        logger.info("stopped");
        process.exit(0);
      } catch (error) {
        logger.error({ err: error }, "error while closing the database");
        process.exit(1);
      }
    });
    server.closeIdleConnections();
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof DatabaseNotReadyError) {
    console.error(error.message);
  } else {
    console.error("Failed to start:", error);
  }
  process.exit(1);
});

/** The extra CA for client metadata documents; a file that cannot be read stops the start, naming the variable. */
function readCaFile(file: string): string {
  try {
    const pem = readFileSync(file, "utf8");
    if (!pem.includes("-----BEGIN CERTIFICATE-----")) throw new Error("no PEM certificate in it");
    return pem;
  } catch (error) {
    throw new ConfigError([`OAUTH_CLIENT_METADATA_CA_FILE: cannot use ${file}: ${(error as Error).message}`]);
  }
}
