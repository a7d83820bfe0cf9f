import { readFileSync } from "node:fs";
import type { Express } from "express";
import { buildApp } from "../../src/app";
import { DEFAULT_DATABASE_POOL_SIZE } from "../../src/config";
import { embeddedDatabase, postgresDatabase, type Database } from "../../src/db/database";
import { openMemoryDatabase } from "../../src/db/embedded-database";
import { systemClock, type Clock } from "../../src/lib/clock";
import { createLogger, type Logger } from "../../src/lib/logger";
import { createServices, type FileSettings, type Services } from "../../src/services";
import { DEFAULT_RATE_LIMITS, type RateLimitSettings } from "../../src/http/rate-limit/rate-limiters";
import type { EmbeddingsProvider } from "../../src/embeddings/embeddings-provider";
import { LocalEmbeddings } from "../../src/embeddings/local-embeddings";
import { TEST_DATABASE_URL, createMigratedDatabase } from "./postgres-server";

export const TEST_ADMIN_TOKEN = "test-admin-token-0123456789abcdef";

/** The defaults, but console tests sign in from one address far more often than a person would. */
const TEST_RATE_LIMITS: RateLimitSettings = { ...DEFAULT_RATE_LIMITS, signIn: 1_000 };

export interface TestApp {
  app: Express;
  services: Services;
  database: Database;
  adminToken: string;
  close(): Promise<void>;
}

/**
 * A fresh real database: on the PostgreSQL pass (TEST_DATABASE_URL) a new database on that server,
 * dropped on close; otherwise embedded Postgres from the migrated snapshot.
 */
export async function openTestDatabase(): Promise<Database> {
  if (TEST_DATABASE_URL) {
    const created = await createMigratedDatabase(TEST_DATABASE_URL);
    const database = postgresDatabase(created.url, { poolSize: DEFAULT_DATABASE_POOL_SIZE });
    return {
      ...database,
      close: async () => {
        await database.close();
        await created.drop();
      },
    };
  }
  const template = process.env.WSI_TEST_TEMPLATE;
  if (!template) throw new Error("WSI_TEST_TEMPLATE is not set: run the tests through jest's global setup");
  return embeddedDatabase(await openMemoryDatabase(new Blob([readFileSync(template)])));
}

export async function createTestApp(
  options: {
    adminToken?: string | null;
    clock?: Clock;
    logger?: Logger;
    embeddings?: EmbeddingsProvider;
    files?: FileSettings;
    trustProxy?: boolean | number | string;
    /** Another process's view of an existing PostgreSQL database: its own pool; close leaves the database. */
    databaseUrl?: string;
    /** A database the test prepared itself (say, migrated over existing rows); close closes it. */
    database?: Database;
    publicBaseUrl?: string;
    rateLimits?: RateLimitSettings;
    clientMetadataCa?: string;
    /** Client ID Metadata Documents served on this machine may be fetched. */
    clientMetadataLoopback?: boolean;
    maxOAuthClients?: number;
    /** How long a key's look-up is kept (Config.apiKeyCacheTtlMs); the service's default when absent. */
    apiKeyCacheTtlMs?: number;
  } = {},
): Promise<TestApp> {
  const database =
    options.database ?? (options.databaseUrl ? postgresDatabase(options.databaseUrl, { poolSize: DEFAULT_DATABASE_POOL_SIZE }) : await openTestDatabase());
  const logger = options.logger ?? createLogger("silent");
  // A search whose query embedding misses the service's 1.5 s budget falls back to words alone, as
  // it should in production; on a busy CI machine that turned meaning-only assertions into chance.
  // Tests wait for the vector instead; none of them measures the budget.
  const embeddings = options.embeddings ?? new LocalEmbeddings({ queryBudgetMs: 60_000 });
  const services = createServices({ database, clock: options.clock ?? systemClock, logger, embeddings, files: options.files, apiKeyCacheTtlMs: options.apiKeyCacheTtlMs });
  const adminToken = options.adminToken === null ? undefined : (options.adminToken ?? TEST_ADMIN_TOKEN);
  const app = buildApp({ services, logger, adminToken, trustProxy: options.trustProxy, publicBaseUrl: options.publicBaseUrl, rateLimits: options.rateLimits ?? TEST_RATE_LIMITS, clientMetadataCa: options.clientMetadataCa, clientMetadataLoopback: options.clientMetadataLoopback, maxOAuthClients: options.maxOAuthClients });
  return {
    app,
    services,
    database,
    adminToken: adminToken ?? "",
    close: async () => {
      await embeddings.close();
      await database.close();
    },
  };
}
