import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import lockfile from "proper-lockfile";
import { ATTR_DB_QUERY_TEXT, ATTR_DB_SYSTEM_NAME, SPAN_EMBEDDED_STATEMENT } from "../telemetry/conventions";
import { inSpan, SpanKind } from "../telemetry/tracing";
import type { SqlExecutor } from "./migrations";
import { sqlLiteral, type NamedStatement, type NamedStatementParam } from "./named-statement";

export class DataDirLockedError extends Error {
  constructor(readonly dataDir: string) {
    super(
      `The embedded database in ${dataDir} is in use by another process. ` +
        `Stop that process, or point DATA_DIR somewhere else.`,
    );
    this.name = "DataDirLockedError";
  }
}

export interface EmbeddedDatabase {
  pg: PGlite;
  executor: SqlExecutor;
  close(): Promise<void>;
}

// PGlite takes no lock on its data dir and two processes writing one dir corrupt it, so the
// owner holds a lock file beside the data, and a crashed owner's lock is taken over at once when
// the process id it recorded is gone (a restart right after `kill -9`). The lock's own staleness
// is only the fallback for an id reused by another process: the owner refreshes the lock from
// its event loop, which PGlite's WebAssembly blocks for seconds at a time, and on a loaded machine
// a 10 s stale time let a second process take a live owner's data dir.
const LOCK_OPTIONS = { stale: 300_000, update: 10_000, realpath: false } as const;

/** Whether a live process owns the data dir (a lock left by one that is gone does not count). */
export async function isDataDirLocked(dataDir: string): Promise<boolean> {
  const root = path.resolve(dataDir);
  return (await lockfile.check(lockPath(root), LOCK_OPTIONS)) && !ownerIsGone(root);
}

function lockPath(dataDir: string): string {
  return path.join(dataDir, "owner");
}

/** Data dirs this process has locked. */
const heldHere = new Set<string>();

function ownerPidPath(dataDir: string): string {
  return path.join(dataDir, "owner.pid");
}

/** Whether the lock's recorded owner is a process that no longer exists on this host. */
function ownerIsGone(dataDir: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(ownerPidPath(dataDir), "utf8").trim());
  } catch {
    return false;
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  // Our own id: we hold the lock, or an earlier process had the same id (pid 1 in a container).
  if (pid === process.pid) return !heldHere.has(dataDir);
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

async function takeLock(root: string): Promise<() => Promise<void>> {
  const lock = () => lockfile.lock(lockPath(root), { ...LOCK_OPTIONS, onCompromised: () => undefined });
  try {
    return await lock();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ELOCKED" || !ownerIsGone(root)) throw error;
    rmSync(`${lockPath(root)}.lock`, { recursive: true, force: true });
    return lock();
  }
}

/** Opens (creating when absent) the embedded Postgres under dataDir, owning it exclusively. */
export async function openEmbeddedDatabase(dataDir: string): Promise<EmbeddedDatabase> {
  const root = path.resolve(dataDir);
  mkdirSync(root, { recursive: true });
  let release: () => Promise<void>;
  try {
    const unlock = await takeLock(root);
    heldHere.add(root);
    writeFileSync(ownerPidPath(root), `${process.pid}\n`);
    release = async () => {
      heldHere.delete(root);
      await unlock();
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOCKED") throw new DataDirLockedError(root);
    throw error;
  }
  try {
    const pg = await PGlite.create(path.join(root, "pgdata"), { extensions: { vector } });
    return { pg, executor: pgliteExecutor(pg), close: async () => { await pg.close(); await release(); } };
  } catch (error) {
    await release();
    throw error;
  }
}

/** An in-memory engine (tests), optionally started from a dumped data dir to skip init and migrations. */
export async function openMemoryDatabase(template?: Blob): Promise<EmbeddedDatabase> {
  const pg = await PGlite.create({ extensions: { vector }, ...(template ? { loadDataDir: template } : {}) });
  return { pg, executor: pgliteExecutor(pg), close: () => pg.close() };
}

/** What only an engine in this process offers. */
export interface InProcessEngine {
  /** Calls `onPayload` with each notification on `channel`, as the notifying transaction commits. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<unknown>;
  /**
   * The output of `COPY (…) TO '/dev/blob' WITH (FORMAT binary)`: rows without the protocol's
   * per-row work, which costs the embedded engine more than reading them (6,000 vectors: about 10
   * times faster than selecting them). The statement takes no parameters.
   */
  copyOut(statement: string): Promise<Uint8Array>;
}

export function pgliteInProcess(pg: PGlite): InProcessEngine {
  return {
    listen: (channel, onPayload) => pg.listen(channel, onPayload),
    copyOut: async (statement) => {
      const { blob } = await pg.query(statement);
      if (!blob) throw new Error("the COPY statement wrote nothing to /dev/blob");
      return new Uint8Array(await blob.arrayBuffer());
    },
  };
}

export function pgliteExecutor(pg: PGlite): SqlExecutor {
  // In a span, as the pg instrumentation traces the pool's statements: nothing else traces the
  // embedded engine's (its text only; parameters are never recorded).
  const traced = <T>(sql: string, work: () => Promise<T>) =>
    inSpan(SPAN_EMBEDDED_STATEMENT, { kind: SpanKind.CLIENT, attributes: { [ATTR_DB_SYSTEM_NAME]: "postgresql", [ATTR_DB_QUERY_TEXT]: sql } }, work);
  const named = embeddedNamedStatements(pg);
  return {
    exec: async (sql) => {
      await pg.exec(sql);
    },
    query: <Row>(sql: string, params?: unknown[]) => traced(sql, async () => (await pg.query<Row>(sql, params)).rows),
    queryNamed: (statement, params) => traced(statement.text, () => named.execute(statement, params)),
  };
}

/**
 * Named statements on PGlite, whose `query` has none: `PREPARE` once, then `EXECUTE` with the
 * values as literals through the simple protocol, one message where `query` sends six (parse,
 * describe, bind, describe, execute, sync) and the server parses and plans the text each time.
 */
function embeddedNamedStatements(pg: PGlite) {
  const prepared = new Map<string, Promise<void>>();
  const prepare = (statement: NamedStatement) => {
    let done = prepared.get(statement.name);
    if (!done) {
      // Another executor on the same engine may hold the name (tests open several): ours replaces it.
      done = pg.exec(`DEALLOCATE ${statement.name}`).catch(() => undefined).then(() => pg.exec(`PREPARE ${statement.name} AS ${statement.text}`)).then(() => undefined);
      done.catch(() => prepared.delete(statement.name));
      prepared.set(statement.name, done);
    }
    return done;
  };
  const run = async <Row>(statement: NamedStatement, params: NamedStatementParam[]) => {
    const results = await pg.exec(`EXECUTE ${statement.name}(${params.map(sqlLiteral).join(", ")})`);
    return results[results.length - 1]!.rows as Row[];
  };
  return {
    async execute<Row>(statement: NamedStatement, params: NamedStatementParam[]): Promise<Row[]> {
      await prepare(statement);
      try {
        return await run<Row>(statement, params);
      } catch (error) {
        // Gone from the session (a DEALLOCATE ALL): prepared again, once.
        if ((error as { code?: string }).code !== "26000") throw error;
        prepared.delete(statement.name);
        await prepare(statement);
        return run<Row>(statement, params);
      }
    },
  };
}
