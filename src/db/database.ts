import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { Pool } from "pg";
import { PrismaClient } from "../generated/prisma/client";
import type { EmbeddedDatabase } from "./embedded-database";
import type { SqlExecutor } from "./migrations";
import { postgresExecutor } from "./postgres-executor";

export type Db = PrismaClient;
/** What a repository may run: the client itself or the client of an interactive transaction. */
export type DbTx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

export interface Database {
  kind: "embedded" | "postgres";
  prisma: Db;
  /** Plain SQL outside Prisma: migrations and start-up checks. */
  executor: SqlExecutor;
  /**
   * Runs `work` on one connection held for it, outside any transaction: for statements that need
   * a session setting and cannot run in a transaction block (CREATE INDEX CONCURRENTLY).
   */
  onOneConnection<T>(work: (session: SqlExecutor) => Promise<T>): Promise<T>;
  /** Answers when the database answers; used by the health check. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function embeddedDatabase(embedded: EmbeddedDatabase): Database {
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(embedded.pg) });
  return {
    kind: "embedded",
    prisma,
    executor: embedded.executor,
    // One connection already; it is shared, so what `work` sets it must reset.
    onOneConnection: (work) => work(embedded.executor),
    ping: async () => {
      await embedded.pg.query("SELECT 1");
    },
    close: async () => {
      await prisma.$disconnect();
      await embedded.close();
    },
  };
}

/**
 * A managed Postgres through one `pg` pool of at most `poolSize` connections per process. With
 * `connectTimeoutMs`, a request waits at most that long for a connection (a new one, or a free one
 * of a full pool) and then fails as unavailable (database-errors.ts), instead of waiting on a
 * server that accepts connections and never answers them.
 */
export function postgresDatabase(connectionString: string, poolSize?: number, connectTimeoutMs?: number): Database {
  const pool = new Pool({ connectionString, ...(poolSize ? { max: poolSize } : {}), ...(connectTimeoutMs ? { connectionTimeoutMillis: connectTimeoutMs } : {}) });
  // The pool drops an idle connection the server closes (restart, failover, a terminated backend)
  // and opens another on next use, but it also emits the error: unheard, that ends the process.
  pool.on("error", () => undefined);
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    kind: "postgres",
    prisma,
    executor: postgresExecutor(pool),
    onOneConnection: async (work) => {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        return await work(postgresExecutor(client));
      } catch (error) {
        // A connection whose session may keep what `work` set is closed, not handed back.
        broken = error instanceof Error ? error : new Error(String(error));
        throw error;
      } finally {
        client.release(broken);
      }
    },
    ping: async () => {
      await pool.query("SELECT 1");
    },
    close: async () => {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
