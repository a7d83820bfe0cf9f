import { readFileSync } from "node:fs";
import type { Express } from "express";
import { buildApp } from "../../src/app";
import { embeddedDatabase, type Database } from "../../src/db/database";
import { openMemoryDatabase } from "../../src/db/embedded-database";
import { systemClock, type Clock } from "../../src/lib/clock";
import { createLogger, type Logger } from "../../src/lib/logger";
import { createServices, type FileSettings, type Services } from "../../src/services";
import type { RateLimitSettings } from "../../src/http/rate-limit/rate-limiters";
import type { EmbeddingsProvider } from "../../src/embeddings/embeddings-provider";
import { LocalEmbeddings } from "../../src/embeddings/local-embeddings";

export const TEST_ADMIN_TOKEN = "test-admin-token-0123456789abcdef";

export interface TestApp {
  app: Express;
  services: Services;
  database: Database;
  adminToken: string;
  close(): Promise<void>;
}

/** A fresh real database (embedded Postgres from the migrated snapshot) and the real app over it. */
export async function openTestDatabase(): Promise<Database> {
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
    rateLimits?: RateLimitSettings;
  } = {},
): Promise<TestApp> {
  const database = await openTestDatabase();
  const logger = options.logger ?? createLogger("silent");
  const embeddings = options.embeddings ?? new LocalEmbeddings();
  const services = createServices({ database, clock: options.clock ?? systemClock, logger, embeddings, files: options.files });
  const adminToken = options.adminToken === null ? undefined : (options.adminToken ?? TEST_ADMIN_TOKEN);
  const app = buildApp({ services, logger, adminToken, rateLimits: options.rateLimits });
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
