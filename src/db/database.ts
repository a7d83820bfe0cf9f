import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "../generated/prisma/client";
import { pgliteInProcess, type EmbeddedDatabase, type InProcessEngine } from "./embedded-database";
import type { SqlExecutor } from "./migrations";
import { clusterNodes, NO_CLUSTER_NODES, type ClusterNodes } from "./cluster-nodes";
import { postgresExecutor } from "./postgres-executor";
import { createSessionPool } from "./session-pool";
import type { Clock } from "../lib/clock";
import type { Logger } from "../lib/logger";

export type Db = PrismaClient;
/** What a repository may run: the client itself or the client of an interactive transaction. */
export type DbTx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

export interface Database {
  kind: "embedded" | "postgres";
  prisma: Db;
  /** Plain SQL outside Prisma: migrations and start-up checks. */
  executor: SqlExecutor;
  /**
   * Runs `work` on one connection held for it, outside any transaction and without the sessions'
   * statement timeout: for statements that need a session setting, cannot run in a transaction
   * block and may run long (CREATE INDEX CONCURRENTLY). On PostgreSQL the connection is closed
   * after, with whatever `work` set.
   */
  onOneConnection<T>(work: (session: SqlExecutor) => Promise<T>): Promise<T>;
  /** The Citus workers' reachability, and the refusal of a workspace whose node is away (none elsewhere). */
  nodes: ClusterNodes;
  /** The embedded engine's own ways in (notifications, binary copies); absent on PostgreSQL, where other processes write too. */
  inProcess?: InProcessEngine;
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
    nodes: NO_CLUSTER_NODES,
    inProcess: pgliteInProcess(embedded.pg),
    ping: async () => {
      await embedded.pg.query("SELECT 1");
    },
    close: async () => {
      await prisma.$disconnect();
      await embedded.close();
    },
  };
}

export interface PostgresOptions {
  /** At most this many connections per process. */
  poolSize?: number;
  /**
   * A request waits at most this long for a connection (a new one, or a free one of a full pool),
   * and the coordinator of a Citus cluster as long for one to a worker; then it fails as
   * unavailable (database-errors.ts) instead of waiting on a server that accepts connections and
   * never answers them.
   */
  connectTimeoutMs?: number;
  /** Every statement of the pool's sessions ends after this long, as unavailable: a node that hangs holds no connection longer. */
  statementTimeoutMs?: number;
  logger?: Logger;
  /** The clock of what is known of a Citus cluster's nodes (tests move it on). */
  clock?: Clock;
}

/** A managed Postgres (or a Citus coordinator) through one `pg` pool per process. */
export function postgresDatabase(connectionString: string, { poolSize, connectTimeoutMs, statementTimeoutMs, logger, clock }: PostgresOptions = {}): Database {
  const settings = [
    ...(statementTimeoutMs ? [`SET statement_timeout = ${Math.floor(statementTimeoutMs)}`] : []),
    // A placeholder setting on plain PostgreSQL, where nothing reads it.
    ...(connectTimeoutMs ? [`SET citus.node_connection_timeout = ${Math.floor(connectTimeoutMs)}`] : []),
  ].join("; ");
  let nodes: ClusterNodes = NO_CLUSTER_NODES;
  const sessions = createSessionPool(
    { connectionString, ...(poolSize ? { max: poolSize } : {}), ...(connectTimeoutMs ? { connectionTimeoutMillis: connectTimeoutMs } : {}) },
    {
      settings,
      onUnavailable: (error) => nodes.heard(error),
      refusal: (workspaceId) => nodes.refusal(workspaceId),
      admission: (workspaceId) => nodes.admission(workspaceId),
      onFreed: () => nodes.freed(),
      watching: () => nodes.watching(),
      // Only where statements are bounded (the web and worker processes' settings): a statement
      // that runs long is then a reason to check the nodes, not an ordinary slow one.
      ...(statementTimeoutMs ? { onSlow: (workspaceId: string | undefined) => nodes.suspect(workspaceId) } : {}),
    },
  );
  const pool = sessions.pool;
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  const executor = postgresExecutor(pool);
  // pg's own default pool size is 10; two connections stay for the other nodes' workspaces.
  nodes = clusterNodes({
    connectionString,
    connectTimeoutMs: connectTimeoutMs ?? 2_000,
    inFlight: sessions,
    nodeShare: Math.max(1, (poolSize ?? 10) - 2),
    logger,
    ...(clock ? { now: () => clock.now().getTime() } : {}),
  });
  return {
    kind: "postgres",
    prisma,
    executor,
    onOneConnection: async (work) => {
      const client = await pool.connect();
      try {
        await client.query("SET statement_timeout = 0");
        return await work(postgresExecutor(client));
      } finally {
        // Closed, not handed back: its session keeps what `work` set.
        client.release(true);
      }
    },
    nodes,
    ping: async () => {
      await pool.query("SELECT 1");
    },
    close: async () => {
      nodes.stop();
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
