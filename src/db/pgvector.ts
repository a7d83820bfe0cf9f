import type { SqlExecutor } from "./migrations";

/**
 * Search sets `ivfflat.iterative_scan` (index scans that read further lists until the other
 * conditions have filled the limit), which pgvector added in 0.8.0, and stores `halfvec` (0.7.0).
 */
export const REQUIRED_PGVECTOR_VERSION = "0.8.0";

export interface PgvectorState {
  /** The version installed in this database (`CREATE EXTENSION`), if any. */
  installed: string | undefined;
  /** The version the server would install (`pg_available_extensions`), if it has pgvector at all. */
  available: string | undefined;
}

export async function readPgvectorState(db: SqlExecutor): Promise<PgvectorState> {
  const [installed] = await db.query<{ version: string }>(`SELECT extversion AS version FROM pg_extension WHERE extname = 'vector'`);
  const [available] = await db.query<{ version: string }>(
    `SELECT default_version AS version FROM pg_available_extensions WHERE name = 'vector'`,
  );
  return { installed: installed?.version, available: available?.version };
}

/** Compares dotted versions numerically ("0.10.0" is newer than "0.8.6"). */
export function isAtLeast(version: string, minimum: string): boolean {
  const parts = (text: string) => text.split(/[.-]/).map((part) => Number.parseInt(part, 10) || 0);
  const have = parts(version);
  const need = parts(minimum);
  for (let i = 0; i < Math.max(have.length, need.length); i++) {
    const difference = (have[i] ?? 0) - (need[i] ?? 0);
    if (difference !== 0) return difference > 0;
  }
  return true;
}

/**
 * What stands between this database and the pgvector the service needs, as a sentence naming the
 * fix, or undefined when nothing does. Before migrating, an extension the server offers but the
 * database lacks is fine: the first migration creates it.
 */
export function pgvectorProblem(state: PgvectorState, when: "migrate" | "start"): string | undefined {
  const need = `pgvector ${REQUIRED_PGVECTOR_VERSION} or newer`;
  if (state.installed !== undefined) {
    if (isAtLeast(state.installed, REQUIRED_PGVECTOR_VERSION)) return undefined;
    const fix =
      state.available !== undefined && isAtLeast(state.available, REQUIRED_PGVECTOR_VERSION)
        ? `run \`ALTER EXTENSION vector UPDATE;\` in this database (the server offers ${state.available})`
        : `upgrade pgvector on the server (it offers ${state.available ?? "none"}), then run \`ALTER EXTENSION vector UPDATE;\``;
    return `The database has pgvector ${state.installed}; the service needs ${need}: ${fix}.`;
  }
  if (state.available === undefined) {
    return `The PostgreSQL server has no pgvector (the \`vector\` extension); the service needs ${need}: choose a server or plan that offers it.`;
  }
  if (!isAtLeast(state.available, REQUIRED_PGVECTOR_VERSION)) {
    return `The PostgreSQL server offers pgvector ${state.available}; the service needs ${need}: upgrade pgvector on the server.`;
  }
  return when === "start" ? "The database has no `vector` extension yet: run `npm run migrate`." : undefined;
}
