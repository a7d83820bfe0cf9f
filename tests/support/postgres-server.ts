import { randomBytes } from "node:crypto";
import { Client } from "pg";

/**
 * The PostgreSQL pass: with TEST_DATABASE_URL naming a server (any database on it), global setup
 * migrates one template database and each test file gets its own copy (CREATE DATABASE … TEMPLATE,
 * ≈0.1 s), dropped when it closes.
 */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function onServer<T>(serverUrl: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A new empty database. Its collation is ICU's en-US, as on managed plans (en_US.UTF-8), rather than
 * the byte order of C and of the embedded engine: sorting that leans on byte order shows up here.
 */
export async function createEmptyDatabase(serverUrl: string, name: string): Promise<string> {
  await onServer(serverUrl, (client) =>
    client.query(`CREATE DATABASE "${name}" TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US'`),
  );
  return databaseUrl(serverUrl, name);
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  await onServer(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

export function uniqueDatabaseName(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString("hex")}`;
}

/** A fresh migrated database for one test file, copied from the template global setup made. */
export async function createMigratedDatabase(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const template = process.env.WSI_TEST_PG_TEMPLATE;
  if (!template) throw new Error("WSI_TEST_PG_TEMPLATE is not set: run the tests through jest's global setup");
  const name = uniqueDatabaseName(template);
  await onServer(serverUrl, (client) => client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`));
  return { url: databaseUrl(serverUrl, name), drop: () => dropDatabase(serverUrl, name) };
}
