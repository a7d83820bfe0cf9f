import type { ClientBase, Pool } from "pg";
import type { SqlExecutor } from "./migrations";

/**
 * Runs SQL on a `pg` client or pool. Without parameters `pg` uses the simple query protocol, which
 * accepts a whole migration file of statements at once. On a pool each call may use another
 * connection: transactions and session locks need a single client.
 */
export function postgresExecutor(client: ClientBase | Pool): SqlExecutor {
  return {
    exec: async (sql) => {
      await client.query(sql);
    },
    query: async <Row>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as Row[],
  };
}
