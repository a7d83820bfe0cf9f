import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { openMemoryDatabase } from "../../src/db/embedded-database";
import { applyMigrations } from "../../src/db/migrations";

/**
 * Builds one migrated database and saves its data dir; each test file starts its own fresh
 * database from that snapshot (≈0.7 s) instead of initialising and migrating one (≈5 s).
 */
export default async function globalSetup(): Promise<void> {
  const database = await openMemoryDatabase();
  await applyMigrations(database.executor);
  const dump = await database.pg.dumpDataDir("none");
  await database.close();
  const dir = mkdtempSync(path.join(os.tmpdir(), "wsi-test-"));
  const file = path.join(dir, "template.tar");
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  process.env.WSI_TEST_TEMPLATE = file;
}
