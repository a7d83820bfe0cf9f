import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DataDirLockedError, isDataDirLocked, openEmbeddedDatabase, openMemoryDatabase } from "../../src/db/embedded-database";
import { applyMigrations, loadMigrations } from "../../src/db/migrations";

describe("applyMigrations", () => {
  it("creates the whole schema with pgvector and records each migration like prisma migrate does", async () => {
    const db = await openMemoryDatabase();
    try {
      const applied = await applyMigrations(db.executor);
      expect(applied).toEqual(loadMigrations().map((m) => m.name));
      const tables = (await db.executor.query<{ tablename: string }>(`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`)).map((r) => r.tablename);
      expect(tables).toEqual(
        expect.arrayContaining([
          "_prisma_migrations", "organizations", "workspaces", "api_keys", "artifacts", "artifact_embeddings",
          "memories", "directives", "data_sources", "query_patterns", "error_learnings", "skills", "skill_files",
        ]),
      );
      // Vectors in half precision kept in the row; vector indexes come per large workspace, later (vector-index-maintenance).
      const vectors = await db.executor.query<{ table: string; type: string; storage: string }>(
        `SELECT attrelid::regclass::text AS table, format_type(atttypid, atttypmod) AS type, attstorage AS storage
         FROM pg_attribute WHERE attname = 'embedding' AND attrelid::regclass::text IN ('artifact_embeddings', 'memories', 'query_patterns', 'error_learnings')`,
      );
      expect(vectors).toHaveLength(4);
      for (const column of vectors) expect(column).toMatchObject({ type: "halfvec(512)", storage: "p" });
      const keys = await db.executor.query<{ indexname: string }>(`SELECT indexname FROM pg_indexes WHERE indexdef LIKE '%USING gin (search_keys(%'`);
      expect(keys.map((index) => index.indexname).sort()).toEqual(
        ["artifacts_search_keys_idx", "error_learnings_search_keys_idx", "memories_search_keys_idx", "query_patterns_search_keys_idx"],
      );
      // A workspace's own index is read whenever it is called: no plan but the index's order is left,
      // and the cost of the disabled steps must not set off JIT compiling (migration own_index_always_read).
      const [nearest] = await db.executor.query<{ settings: string[] }>(`SELECT proconfig AS settings FROM pg_proc WHERE proname = 'nearest_in_workspace_index'`);
      expect(nearest!.settings).toEqual(expect.arrayContaining(["enable_seqscan=off", "enable_sort=off", "jit=off"]));
    } finally {
      await db.close();
    }
  });

  it("applies nothing the second time", async () => {
    const db = await openMemoryDatabase();
    try {
      await applyMigrations(db.executor);
      expect(await applyMigrations(db.executor)).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it("refuses to run over a migration whose file changed after it was applied", async () => {
    const db = await openMemoryDatabase();
    try {
      await applyMigrations(db.executor);
      const changed = loadMigrations().map((m) => ({ ...m, checksum: "0".repeat(64) }));
      await expect(applyMigrations(db.executor, changed)).rejects.toThrow(/changed after it was applied/);
    } finally {
      await db.close();
    }
  });

  it("rolls a failing migration back whole", async () => {
    const db = await openMemoryDatabase();
    try {
      const broken = [{ name: "1_broken", checksum: "x", sql: `CREATE TABLE half_done (id int); SELECT no_such_function();` }];
      await expect(applyMigrations(db.executor, broken)).rejects.toThrow(/Migration 1_broken failed/);
      const rows = await db.executor.query(`SELECT 1 FROM pg_tables WHERE tablename = 'half_done'`);
      expect(rows).toEqual([]);
    } finally {
      await db.close();
    }
  });
});

describe("embedded data dir ownership", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "wsi-lock-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("refuses a second opener of the same data dir with a clear error", async () => {
    const owner = await openEmbeddedDatabase(dir);
    try {
      await expect(openEmbeddedDatabase(dir)).rejects.toThrow(DataDirLockedError);
      await expect(openEmbeddedDatabase(dir)).rejects.toThrow(/is in use by another process/);
    } finally {
      await owner.close();
    }
  });

  it("counts a lock as held while its recorded owner lives, and takes over the lock of one that is gone", async () => {
    // A lock as an owner leaves it when killed: fresh, with its process id beside it.
    const leaveLock = (pid: number) => {
      mkdirSync(path.join(dir, "owner.lock"), { recursive: true });
      writeFileSync(path.join(dir, "owner.pid"), `${pid}\n`);
    };
    leaveLock(process.ppid);
    expect(await isDataDirLocked(dir)).toBe(true);
    await expect(openEmbeddedDatabase(dir)).rejects.toThrow(DataDirLockedError);

    const gone = spawnSync(process.execPath, ["-e", ""]).pid!;
    leaveLock(gone);
    expect(await isDataDirLocked(dir)).toBe(false);
    const next = await openEmbeddedDatabase(dir);
    await next.close();
  });

  it("lets the next opener in once the owner has closed", async () => {
    const first = await openEmbeddedDatabase(dir);
    await first.close();
    const second = await openEmbeddedDatabase(dir);
    await second.close();
  });

  it("keeps data across reopening", async () => {
    const first = await openEmbeddedDatabase(dir);
    await applyMigrations(first.executor);
    await first.executor.query(`INSERT INTO organizations (id, name) VALUES ('org_keep', 'Kept')`);
    await first.close();
    const second = await openEmbeddedDatabase(dir);
    try {
      const rows = await second.executor.query<{ name: string }>(`SELECT name FROM organizations WHERE id = 'org_keep'`);
      expect(rows).toEqual([{ name: "Kept" }]);
    } finally {
      await second.close();
    }
  });
});
