import { createWriteStream } from "node:fs";
import { isIPv6, type AddressInfo } from "node:net";
import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Server } from "node:http";
import { buildApp } from "../app";
import { readLocalAdminToken, readRunningServer } from "../bootstrap/local-files";
import type { Config } from "../config";
import { isDataDirLocked } from "../db/embedded-database";
import { openDatabase } from "../db/open-database";
import { createEmbeddingsProvider } from "../embeddings/create-embeddings";
import { systemClock } from "../lib/clock";
import { createLogger } from "../lib/logger";
import { randomBase62 } from "../lib/ids";
import { createServices } from "../services";

export interface AdminConnection {
  baseUrl: string;
  token: string;
  /** Where the calls go, for the user: the running server, or the database opened directly. */
  via: string;
  close(): Promise<void>;
}

/** Where to reach a server that listens on `address`: itself, or loopback when it listens on every interface. */
function reachableAddress(address: string | undefined): string {
  if (address === undefined || address === "0.0.0.0" || address === "::") return "127.0.0.1";
  return isIPv6(address) ? `[${address}]` : address;
}

/**
 * Reaches the admin API: the running local server's when it owns the data dir (two processes must
 * not open one embedded database), otherwise an in-process server on a loopback port over the
 * database itself — so every command takes the same path through the same validation.
 */
export async function connectAdmin(config: Config): Promise<AdminConnection> {
  if (!config.databaseUrl && (await isDataDirLocked(config.dataDir))) {
    const running = readRunningServer(config.dataDir);
    const token = config.adminToken ?? readLocalAdminToken(config.dataDir);
    if (!running || !token) {
      throw new Error(
        `The embedded database in ${config.dataDir} is owned by another process that is not a server this command can reach.`,
      );
    }
    return { baseUrl: `http://${reachableAddress(running.address)}:${running.port}`, token, via: `server on port ${running.port}`, close: async () => {} };
  }
  const database = await openDatabase(config);
  const logger = createLogger("silent");
  const token = `adm_${randomBase62(40)}`;
  const embeddings = createEmbeddingsProvider(config.embeddings);
  const services = createServices({ database, clock: systemClock, logger, embeddings, files: config });
  const app = buildApp({ services, logger, adminToken: token });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    token,
    via: database.kind === "embedded" ? `embedded database in ${config.dataDir}` : "DATABASE_URL",
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await embeddings.close();
      await database.close();
    },
  };
}

export interface AdminResponse {
  status: number;
  body: unknown;
}

export async function callAdmin(
  connection: AdminConnection,
  method: string,
  path: string,
  body?: unknown,
): Promise<AdminResponse> {
  const response = await fetch(`${connection.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${connection.token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text === "" ? null : JSON.parse(text) };
}

/**
 * A call whose successful answer is written as it arrives (an export of any size), to a file or
 * to stdout ("-"), never held whole; an error answer is read and returned as usual.
 */
export async function callAdminToFile(connection: AdminConnection, path: string, file: string): Promise<AdminResponse & { bytes?: number }> {
  const response = await fetch(`${connection.baseUrl}${path}`, { headers: { authorization: `Bearer ${connection.token}` } });
  if (response.status >= 400 || !response.body) {
    const text = await response.text();
    return { status: response.status, body: text === "" ? null : JSON.parse(text) };
  }
  let bytes = 0;
  const counted = Readable.fromWeb(response.body as import("node:stream/web").ReadableStream).on("data", (chunk: Buffer) => {
    bytes += chunk.length;
  });
  const out = file === "-" ? new Writable({ write: (chunk, _encoding, done) => (process.stdout.write(chunk) ? done() : process.stdout.once("drain", done)) }) : createWriteStream(file);
  await pipeline(counted, out);
  return { status: response.status, body: null, bytes };
}
