import type { Db, DbTx } from "./database";

/**
 * Runs `read` in one transaction that sees the database as it was at its first statement and
 * writes nothing: REPEATABLE READ, READ ONLY. On PostgreSQL (and Citus, where the level carries
 * over to the workers' transactions) it blocks no writer; it holds a pool connection, and keeps
 * vacuum from removing rows deleted after it began, until `read` returns. On the embedded engine,
 * one connection, every other statement waits until then.
 */
export function inReadOnlySnapshot<T>(db: Db, read: (tx: DbTx) => Promise<T>, limits: { maxWait: number; timeout: number }): Promise<T> {
  return db.$transaction(async (tx) => {
    // The first statement, so that it applies: a transaction's level is fixed by its first query.
    await tx.$executeRaw`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`;
    await allowLongStatements(tx, limits.timeout);
    return read(tx);
  }, limits);
}

/**
 * Lets each statement of the transaction `tx` run up to `ms`: the sessions' own statement timeout
 * (DATABASE_STATEMENT_TIMEOUT_MS) is a request's, and an import, an export or a workspace's
 * deletion at 100,000 artifacts has statements far longer. Ends with the transaction.
 */
export async function allowLongStatements(tx: DbTx, ms: number): Promise<void> {
  await tx.$queryRaw`SELECT set_config('statement_timeout', ${String(Math.floor(ms))}, true)`;
}
