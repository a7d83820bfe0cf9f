import { Pool, type ClientBase, type QueryConfig } from "pg";
import { isShardMoved } from "./database-errors";
import type { SqlExecutor } from "./migrations";
import type { NamedStatement, NamedStatementParam } from "./named-statement";

/**
 * Runs SQL on a `pg` client or pool. Without parameters `pg` uses the simple query protocol, which
 * accepts a whole migration file of statements at once. On a pool each call may use another
 * connection: transactions and session locks need a single client.
 */
export function postgresExecutor(client: ClientBase | Pool): SqlExecutor {
  // A statement on a pool runs on its own, so it failed whole: when Citus split or moved its shard
  // under it (a push while a workspace is isolated), it is sent once more, to where the rows are now.
  // On a client it may be one of a transaction's, which the error has ended: that is the caller's.
  const run = async (statement: string | QueryConfig, params?: unknown[]) => {
    try {
      return await client.query(statement, params);
    } catch (error) {
      if (!(client instanceof Pool) || !isShardMoved(error)) throw error;
      return client.query(statement, params);
    }
  };
  return {
    exec: async (sql) => {
      await run(sql);
    },
    query: async <Row>(sql: string, params?: unknown[]) => (await run(sql, params)).rows as Row[],
    // `pg` prepares a named statement on each connection the first time that connection runs it.
    queryNamed: async <Row>(statement: NamedStatement, params: NamedStatementParam[]) => (await run({ name: statement.name, text: statement.text, values: params })).rows as Row[],
  };
}
