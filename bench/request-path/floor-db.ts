import { Pool } from "pg";
import { DEFAULT_DATABASE_POOL_SIZE } from "../../src/config";
import { openEmbeddedDatabase } from "../../src/db/embedded-database";
import type { NamedStatement, NamedStatementParam } from "../../src/db/named-statement";
import { postgresExecutor } from "../../src/db/postgres-executor";

// A floor's database: the same engine and driver as the service's, without Prisma. On PostgreSQL
// `pg` with the service's default pool size; on the embedded engine PGlite, opened the way the
// service opens it, on the data directory the service used (stopped meanwhile: one owner at a time).

export interface FloorDb {
  query<Row>(sql: string, params?: unknown[]): Promise<Row[]>;
  /** A named statement (prepared once per connection), as the service runs its fetch: src/db/named-statement.ts. */
  queryNamed<Row>(statement: NamedStatement, params: NamedStatementParam[]): Promise<Row[]>;
  close(): Promise<void>;
}

/** `session`: statements every connection runs first (session settings). */
export async function openFloorDb(session: string[] = []): Promise<FloorDb> {
  const url = process.env.FLOOR_DATABASE_URL;
  if (url) {
    const pool = new Pool({ connectionString: url, max: DEFAULT_DATABASE_POOL_SIZE });
    // Queued on the new connection before any query it is lent for.
    pool.on("connect", (client) => {
      for (const statement of session) client.query(statement).catch((error: unknown) => console.error(error));
    });
    const executor = postgresExecutor(pool);
    return { query: (sql, params) => executor.query(sql, params), queryNamed: (statement, params) => executor.queryNamed(statement, params), close: () => pool.end() };
  }
  const dataDir = process.env.FLOOR_DATA_DIR;
  if (!dataDir) throw new Error("set FLOOR_DATABASE_URL or FLOOR_DATA_DIR");
  const embedded = await openEmbeddedDatabase(dataDir);
  for (const statement of session) await embedded.pg.exec(statement);
  return {
    query: async <Row>(sql: string, params?: unknown[]) => (await embedded.pg.query<Row>(sql, params)).rows,
    queryNamed: (statement, params) => embedded.executor.queryNamed(statement, params),
    close: () => embedded.close(),
  };
}

/** The workspace id, checked so that it can be written into a statement (the floors' partial index names it). */
export function floorWorkspace(): string {
  const id = process.env.FLOOR_WORKSPACE ?? "";
  if (!/^ws_[A-Za-z0-9]+$/.test(id)) throw new Error(`FLOOR_WORKSPACE: not a workspace id: ${JSON.stringify(id)}`);
  return id;
}

/** Listens on a free loopback port, says so on stdout (what the bench waits for), and stops cleanly on SIGTERM. */
export function serveUntilSigterm(server: import("node:http").Server, name: string, beforeExit: () => Promise<void>): void {
  server.keepAliveTimeout = 60_000;
  server.listen(0, "127.0.0.1", () => {
    const address = server.address() as import("node:net").AddressInfo;
    console.log(`${name} listening on port ${address.port}`);
  });
  process.once("SIGTERM", () => {
    server.close();
    server.closeAllConnections();
    beforeExit().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
