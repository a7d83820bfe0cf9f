import { rmSync } from "node:fs";
import path from "node:path";
import { TEST_DATABASE_URL, onServer } from "./postgres-server";

export default async function globalTeardown(): Promise<void> {
  const file = process.env.WSI_TEST_TEMPLATE;
  if (file) rmSync(path.dirname(file), { recursive: true, force: true });
  const template = process.env.WSI_TEST_PG_TEMPLATE;
  if (TEST_DATABASE_URL && template) {
    // The template and any copy a crashed test file left behind.
    await onServer(TEST_DATABASE_URL, async (client) => {
      const { rows } = await client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`${template}%`]);
      for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    });
  }
}
