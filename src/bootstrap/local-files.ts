import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { randomBase62 } from "../lib/ids";

// Files kept beside the embedded database for local development only.

export interface LocalAdminToken {
  token: string;
  /** Where it is kept. */
  file: string;
  /** Made on this run (and so shown once); otherwise read from the file. */
  created: boolean;
}

/** The admin token of a local server started without ADMIN_TOKEN: made once, then reused. */
export function loadOrCreateLocalAdminToken(dataDir: string): LocalAdminToken {
  const file = path.resolve(dataDir, "admin-token");
  if (existsSync(file)) return { token: readFileSync(file, "utf8").trim(), file, created: false };
  const token = `adm_${randomBase62(40)}`;
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return { token, file, created: true };
}

export function readLocalAdminToken(dataDir: string): string | undefined {
  const file = path.join(dataDir, "admin-token");
  return existsSync(file) ? readFileSync(file, "utf8").trim() : undefined;
}

export interface RunningServer {
  pid: number;
  port: number;
  /** The address it listens on (HOST); absent in files written before it was kept. */
  address?: string;
}

/** Where the running server listens, so `npm run admin` can reach it instead of opening the data dir. */
export function writeRunningServer(dataDir: string, server: RunningServer): void {
  writeFileSync(path.join(dataDir, "server.json"), JSON.stringify(server), { mode: 0o600 });
}

export function readRunningServer(dataDir: string): RunningServer | undefined {
  const file = path.join(dataDir, "server.json");
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, "utf8")) as RunningServer;
  } catch {
    return undefined;
  }
}

export function clearRunningServer(dataDir: string): void {
  rmSync(path.join(dataDir, "server.json"), { force: true });
}
