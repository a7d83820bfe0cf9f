import { Client } from "pg";
import { openEmbeddedDatabase } from "../../src/db/embedded-database";
import { cutToModelInput } from "../../src/embeddings/embeddings-provider";
import { LOCAL_EMBEDDINGS_MODEL, LOCAL_MAX_INPUT_CHARS } from "../../src/embeddings/local-embeddings";
import { ModelThread } from "../../src/embeddings/model-thread";
import { OWN_INDEX_MIN_VECTORS } from "../../src/indexing/vector-index-maintenance";
import { realisticArtifact, realisticWorkspace } from "../../tests/support/realistic-workspace";
import { settings } from "./config";
import { call, type Service } from "./server";

// The workspace: tests/support/realistic-workspace.ts (its memories, data source and artifacts of
// about 3 KB, as they are), imported through the admin API in parts under the service's 1 MB body
// limit, then indexed: by the service itself (its model, every vector), or, from BENCH_POOL_FROM
// artifacts on, from a pool of the model's vectors written by SQL (fillFromPool).

export interface ImportedWorkspace {
  workspaceId: string;
  artifactIds: string[];
  importMs: number;
}

type IndexState = {
  tables: Record<string, { pending: number; failed: number; embedded: number; unfindable: number }>;
  ownIndexes: Record<string, { state: string; documents: number | null; probes: number | null; error: string | null }>;
};

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** A new workspace holding `size` realistic artifacts (and the realistic workspace's memories and data source). */
export async function importWorkspace(service: Service, size: number, log: (line: string) => void): Promise<ImportedWorkspace> {
  const { id: workspaceId } = await call<{ id: string }>(service, "POST", "/admin/v1/workspaces", { name: `request-path bench, ${size} artifacts` });
  const started = performance.now();
  // Everything but the artifacts first, then the artifacts in parts (the same as realisticWorkspace's: realisticArtifact(0…size-1)).
  await call(service, "POST", `/admin/v1/workspaces/${workspaceId}/import`, realisticWorkspace({ artifacts: 0 }));
  const artifactIds: string[] = [];
  let part: string[] = [];
  let bytes = 0;
  const send = async () => {
    const body = `{"artifacts":[${part.join(",")}]}`;
    const res = await fetch(`${service.base}/admin/v1/workspaces/${workspaceId}/import`, { method: "POST", headers: service.admin, body });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`import answered ${res.status}: ${text.slice(0, 2000)}`);
    artifactIds.push(...(JSON.parse(text) as { artifactIds: string[] }).artifactIds);
    part = [];
    bytes = 0;
  };
  for (let n = 0; n < size; n++) {
    const json = JSON.stringify(realisticArtifact(n));
    if (bytes + json.length + 32 > settings.importPartBytes) await send();
    part.push(json);
    bytes += json.length + 1;
    if (n > 0 && n % 10_000 === 0) log(`  imported ${n} artifacts (${seconds(performance.now() - started)})`);
  }
  if (part.length > 0) await send();
  if (artifactIds.length !== size) throw new Error(`the import returned ${artifactIds.length} artifact ids for ${size} artifacts`);
  return { workspaceId, artifactIds, importMs: performance.now() - started };
}

/** A full-access API key of the workspace (the secret). */
export async function createKey(service: Service, workspaceId: string): Promise<string> {
  return (await call<{ key: string }>(service, "POST", `/admin/v1/workspaces/${workspaceId}/keys`, { name: "request-path bench" })).key;
}

export const indexState = (service: Service, workspaceId: string) => call<IndexState>(service, "GET", `/admin/v1/workspaces/${workspaceId}/index`);
const pendingOf = (state: IndexState) => Object.values(state.tables).reduce((sum, table) => sum + table.pending, 0);
const failedOf = (state: IndexState) => Object.values(state.tables).reduce((sum, table) => sum + table.failed, 0);

/**
 * Waits until the service has made every vector of the workspace (the admin index state's
 * `pending`, as bench/pipeline-bench.ts reads it).
 */
export async function waitDrained(service: Service, workspaceId: string, since: number, log: (line: string) => void): Promise<{ ms: number; vectors: number }> {
  let lastLog = performance.now();
  for (let state = await indexState(service, workspaceId); ; state = await indexState(service, workspaceId)) {
    const pending = pendingOf(state);
    if (pending === 0) {
      if (failedOf(state) > 0) throw new Error(`the service could not embed ${failedOf(state)} rows: ${JSON.stringify(state.tables)}`);
      return { ms: performance.now() - since, vectors: Object.values(state.tables).reduce((sum, table) => sum + table.embedded, 0) };
    }
    const now = performance.now();
    if (now - lastLog > 30_000) {
      log(`  ${pending} vectors still to make (${seconds(now - since)} since the import began)`);
      lastLog = now;
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/**
 * Waits until every artifact of the workspace is findable by meaning (the admin index state's
 * `unfindable` of artifacts is 0: every headline vector made; the bodies' follow), looking every
 * quarter second: the time since `since` and the vectors still to make then.
 */
export async function waitFindable(service: Service, workspaceId: string, since: number): Promise<{ ms: number; pending: number }> {
  for (;;) {
    const state = await indexState(service, workspaceId);
    if (state.tables.artifacts!.unfindable === 0) return { ms: performance.now() - since, pending: pendingOf(state) };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Once the workspace has enough vectors for an index of its own (OWN_INDEX_MIN_VECTORS of the
 * engine), waits until the service's upkeep has built it, as it would be in a workspace of that
 * size in use: what the state says, and how long it took.
 */
export async function waitOwnIndex(service: Service, workspaceId: string, engine: "embedded" | "postgres"): Promise<string> {
  const started = performance.now();
  for (;;) {
    const state = await indexState(service, workspaceId);
    const vectors = state.tables.artifacts?.embedded ?? 0;
    const own = state.ownIndexes.artifacts!;
    if (vectors < OWN_INDEX_MIN_VECTORS[engine]) return `no index of its own (${vectors} artifact vectors, under ${OWN_INDEX_MIN_VECTORS[engine]}): exact scan`;
    if (own.state === "built") return `its own index built (${own.documents} documents, ${own.probes} probes), waited ${seconds(performance.now() - started)}`;
    if (own.state === "unbuildable") return `its own index could not be built (${own.error}): exact scan`;
    if (performance.now() - started > 300_000) return `its own index not built 5 minutes after the vectors were made: exact scan`;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}

// The text the service's indexer embeds for an artifact vector row (src/repositories/embedding-queue.repository.ts, EMBEDDED_TABLES).
const ROW_TEXT = `CASE t.facet
  WHEN 'headline' THEN concat_ws(E'\\n', a.summary,
    (SELECT string_agg(f, E'\\n') FROM jsonb_array_elements_text(
       CASE WHEN jsonb_typeof(a.key_findings) = 'array' THEN a.key_findings ELSE '[]'::jsonb END) AS f))
  ELSE coalesce(t.text, concat_ws(E'\\n', a.summary, a.why, a.recommendation))
END`;

/** A realistic artifact's headline: "<Metric> <verb> for <segment> in <region> during <period>". */
const HEADLINE = /^(.+) (?:rose|fell|doubled|halved|recovered|stalled|accelerated|slipped) for (.+) in (.+) during (.+)$/;

/**
 * Fills the vectors of every artifact row of the workspace without running the model on each:
 * the model embeds the real texts of the rows of a few hundred artifacts (about
 * BENCH_POOL_TEXTS texts), chosen so that every (metric, region) of the workspace, and as many
 * (metric, segment, region) as fit, has one; every other artifact's rows get the vectors of the
 * chosen artifact that shares its metric, segment and region (else its metric and region), row
 * for row (same facet, same body part or the nearest below), each plus a little noise
 * (±0.005 a dimension, then unit length) so that no two rows are equal. Vectors are thus the model's
 * vectors of texts about the same subject, not of the row's own text: search by meaning returns
 * artifacts on the question's subject, their order among them is not the model's.
 */
export async function fillFromPool(database: { databaseUrl?: string; dataDir: string }, workspaceId: string, log: (line: string) => void): Promise<string> {
  const client = await openSeedingDb(database);
  try {
    const started = performance.now();
    const { rows: artifacts } = await client.query<{ id: string; summary: string; vectors: number }>(
      `SELECT a.id, a.summary, (SELECT count(*)::int FROM artifact_embeddings e WHERE e.workspace_id = a.workspace_id AND e.artifact_id = a.id) AS vectors
       FROM artifacts a WHERE a.workspace_id = $1 ORDER BY a.id`,
      [workspaceId],
    );
    const keys = artifacts.map((artifact) => {
      const match = HEADLINE.exec(artifact.summary);
      return match ? { narrow: `${match[1]!.toLowerCase()}|${match[2]}|${match[3]}`, wide: `${match[1]!.toLowerCase()}|${match[3]}` } : { narrow: artifact.summary, wide: "" };
    });
    // The pool: one artifact per (metric, region), then per (metric, segment, region), within the budget of texts.
    const poolOf = { narrow: new Map<string, string>(), wide: new Map<string, string>() };
    const chosen = new Set<string>();
    let texts = 0;
    artifacts.forEach((artifact, i) => {
      if (poolOf.wide.has(keys[i]!.wide)) return;
      poolOf.wide.set(keys[i]!.wide, artifact.id);
      chosen.add(artifact.id);
      texts += artifact.vectors;
    });
    artifacts.forEach((artifact, i) => {
      if (poolOf.narrow.has(keys[i]!.narrow)) return;
      if (!chosen.has(artifact.id)) {
        if (texts + artifact.vectors > settings.poolTexts) return;
        chosen.add(artifact.id);
        texts += artifact.vectors;
      }
      poolOf.narrow.set(keys[i]!.narrow, artifact.id);
    });
    const poolIds = [...chosen];
    const { rows: poolRows } = await client.query<{ artifact_id: string; facet: string; part: number; text: string }>(
      `SELECT t.artifact_id, t.facet::text AS facet, t.part, ${ROW_TEXT} AS text
       FROM artifact_embeddings t JOIN artifacts a ON a.workspace_id = t.workspace_id AND a.id = t.artifact_id
       WHERE t.workspace_id = $1 AND t.artifact_id = ANY($2::text[])`,
      [workspaceId, poolIds],
    );
    // The service's local model (LocalEmbeddings.embed: the same threads' code, texts cut the same
    // way), on two threads at normal priority: LocalEmbeddings' index threads run at nice 19 and
    // get almost nothing on a machine shared with other work.
    const threads = [new ModelThread({ name: "pool-0" }), new ModelThread({ name: "pool-1" })];
    const embedStarted = performance.now();
    const batches: string[][] = [];
    for (let start = 0; start < poolRows.length; start += 32) batches.push(poolRows.slice(start, start + 32).map((row) => cutToModelInput(row.text, LOCAL_MAX_INPUT_CHARS)));
    const vectors: number[][] = [];
    try {
      let next = 0;
      const results: number[][][] = [];
      await Promise.all(
        threads.map(async (thread) => {
          for (let batch = next++; batch < batches.length; batch = next++) results[batch] = await thread.embed(batches[batch]!);
        }),
      );
      for (const result of results) vectors.push(...result);
    } finally {
      await Promise.all(threads.map((thread) => thread.close()));
    }
    if (vectors.length !== poolRows.length || vectors.some((vector) => vector.length !== 512)) throw new Error("the model did not return one 512-dimension vector per pool text");
    const embedMs = performance.now() - embedStarted;
    log(`  the model embedded ${poolRows.length} texts of ${poolIds.length} artifacts in ${seconds(embedMs)}`);

    await client.query("SET synchronous_commit = off");
    await client.query("CREATE TEMP TABLE bench_pool (artifact_id text, facet text, part int, v vector(512), PRIMARY KEY (artifact_id, facet, part))");
    await client.query("CREATE TEMP TABLE bench_assign (artifact_id text PRIMARY KEY, pool_id text NOT NULL)");
    // As one JSON text, which both engines' drivers pass alike (PGlite writes an array of vector literals unquoted).
    await client.query("INSERT INTO bench_pool SELECT artifact_id, facet, part, v::vector FROM json_to_recordset($1::json) AS r(artifact_id text, facet text, part int, v text)", [
      JSON.stringify(poolRows.map((row, i) => ({ artifact_id: row.artifact_id, facet: row.facet, part: row.part, v: `[${vectors[i]!.join(",")}]` }))),
    ]);
    const assigned = artifacts.map((_, i) => poolOf.narrow.get(keys[i]!.narrow) ?? poolOf.wide.get(keys[i]!.wide) ?? poolIds[i % poolIds.length]!);
    for (let start = 0; start < artifacts.length; start += 20_000) {
      await client.query("INSERT INTO bench_assign SELECT artifact_id, pool_id FROM json_to_recordset($1::json) AS r(artifact_id text, pool_id text)", [
        JSON.stringify(artifacts.slice(start, start + 20_000).map((artifact, i) => ({ artifact_id: artifact.id, pool_id: assigned[start + i] }))),
      ]);
    }
    // Volatile and not inlined (a sub-select): every row draws its own noise.
    await client.query(`CREATE FUNCTION pg_temp.bench_noisy(v vector) RETURNS vector LANGUAGE sql VOLATILE AS $$
      SELECT l2_normalize(v + (SELECT array_agg((random() - 0.5) * 0.01) FROM generate_series(1, 512))::vector(512)) $$`);
    const writeStarted = performance.now();
    const { rowCount } = await client.query(
      `WITH m AS (
         SELECT t.id, (SELECT p.v FROM bench_pool p WHERE p.artifact_id = s.pool_id AND p.facet = t.facet::text AND p.part <= t.part ORDER BY p.part DESC LIMIT 1) AS v
         FROM artifact_embeddings t JOIN bench_assign s ON s.artifact_id = t.artifact_id
         WHERE t.workspace_id = $1 AND t.model IS NULL)
       UPDATE artifact_embeddings t SET model = $2, embedding = pg_temp.bench_noisy(m.v)::halfvec(512)
       FROM m WHERE t.workspace_id = $1 AND t.id = m.id AND m.v IS NOT NULL`,
      [workspaceId, LOCAL_EMBEDDINGS_MODEL],
    );
    await client.query("VACUUM ANALYZE artifact_embeddings");
    const left = (await client.query<{ n: number }>("SELECT count(*)::int AS n FROM artifact_embeddings WHERE workspace_id = $1 AND model IS NULL", [workspaceId])).rows[0]!.n;
    const summary =
      `vectors from a pool: the model embedded the ${poolRows.length} row texts of ${poolIds.length} artifacts (${poolOf.wide.size} (metric, region) and ${poolOf.narrow.size} (metric, segment, region) subjects) in ${seconds(embedMs)}; ` +
      `SQL wrote ${rowCount} artifact vectors from them with noise in ${seconds(performance.now() - writeStarted)} (${left} left to the service's model); ${seconds(performance.now() - started)} in all`;
    log(`  ${summary}`);
    return summary;
  } finally {
    await client.close();
  }
}

/** The statements fillFromPool runs, on either engine: its own session (one connection, for its temporary tables). */
interface SeedingDb {
  query<Row>(sql: string, params?: unknown[]): Promise<{ rows: Row[]; rowCount: number }>;
  close(): Promise<void>;
}

/** PostgreSQL through `pg`, or the embedded data directory opened in this process while no service runs on it (one owner at a time). */
async function openSeedingDb(database: { databaseUrl?: string; dataDir: string }): Promise<SeedingDb> {
  if (database.databaseUrl) {
    const client = new Client({ connectionString: database.databaseUrl });
    await client.connect();
    return {
      query: async <Row>(sql: string, params?: unknown[]) => {
        const result = await client.query(sql, params);
        return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
      },
      close: () => client.end(),
    };
  }
  const embedded = await openEmbeddedDatabase(database.dataDir);
  return {
    query: async <Row>(sql: string, params?: unknown[]) => {
      const result = await embedded.pg.query<Row>(sql, params);
      return { rows: result.rows, rowCount: result.affectedRows ?? 0 };
    },
    close: () => embedded.close(),
  };
}
