import path from "node:path";
import { settings } from "./config";
import { baseEnvironment, startLogged, type LoggedProcess } from "./processes";

// Starts a floor (fetch-floor.ts, search-floor.ts) in a process of its own, on the same database
// as the service's: the PostgreSQL database, or the embedded data directory once the service has stopped.

export interface Floor {
  process: LoggedProcess;
  base: string;
  /** What it said as it started (the search floor: its index build). */
  note: string;
}

export async function startFloor(kind: "fetch" | "search", database: { databaseUrl?: string; dataDir: string }, workspaceId: string, logFile: string): Promise<Floor> {
  const env = {
    ...baseEnvironment(),
    FLOOR_WORKSPACE: workspaceId,
    ...(database.databaseUrl ? { FLOOR_DATABASE_URL: database.databaseUrl } : { FLOOR_DATA_DIR: database.dataDir }),
  };
  const { process: child, match } = await startLogged(`the ${kind} floor`, settings.node, ["--import", "tsx", path.join(__dirname, `${kind}-floor.ts`)], {
    env,
    logFile,
    ready: new RegExp(`${kind} floor listening on port (\\d+)`),
    // The search floor builds its HNSW index first: minutes at 100,000 artifacts.
    timeoutMs: 3_600_000,
  });
  const note = /search floor: (HNSW index[^\n]*)/.exec(child.log())?.[1] ?? "";
  return { process: child, base: `http://127.0.0.1:${match[1]}`, note };
}
