import type { Database } from "../../src/db/database";
import { toVectorLiteral } from "../../src/embeddings/embeddings-provider";
import { Prisma } from "../../src/generated/prisma/client";
import { createArtifactSearchRepository } from "../../src/repositories/artifact-search.repository";
import { createVectorIndexRepository } from "../../src/repositories/vector-index.repository";
import { ownColumnVectors } from "../../src/search/hybrid-candidates";
import { percentile } from "./measure";

// How many of the truly nearest artifacts the search's vector path finds, per workspace size:
// the repository's `nearest` against a brute-force scan of the workspace's vectors.

/** The nearest artifacts a search asks the vector path for (the repository's CANDIDATES_PER_SIDE). */
export const NEAREST_ASKED = 50;
/** Distances this close count as a tie: either artifact is a right answer. */
const TIE = 1e-9;

export interface QueryVector {
  vector: number[];
  model: string;
}

export interface RecallRow {
  name: string;
  artifacts: number;
  recallAt10: { mean: number; worst: number };
  recallAt50: { mean: number; worst: number };
  /** The fewest rows one query returned, and how many it should have. */
  fewestRows: number;
  expectedRows: number;
  strategies: string[];
  nearestP50: number;
  /** The exact scan's own p50: what the workspace would pay without an index of its own. */
  exactP50: number;
}

/**
 * Every artifact of the workspace by its nearest vector row, ties by id. The `+ 0` makes the
 * ordering an expression no index serves: every vector of the workspace is compared. The query
 * vector has the column's own type (`vector`, `halfvec`), so that distances are computed as the
 * search computes them and ties stay ties.
 */
const exactNearest = (vectorType: string) => `
  SELECT artifact_id AS id, min((embedding <=> $1::${vectorType}) + 0) AS distance
  FROM artifact_embeddings
  WHERE workspace_id = $2 AND searchable AND model = $3 AND embedding IS NOT NULL
  GROUP BY artifact_id ORDER BY distance, artifact_id LIMIT $4`;
const distancesOf = (vectorType: string) => `
  SELECT artifact_id AS id, min((embedding <=> $1::${vectorType}) + 0) AS distance
  FROM artifact_embeddings
  WHERE workspace_id = $2 AND searchable AND model = $3 AND embedding IS NOT NULL AND artifact_id = ANY($4::text[])
  GROUP BY artifact_id`;

/** Recall@k of `found` (best first): its first k that are at most as far as the exact k-th, over the k it should find. */
function recallAt(k: number, found: string[], exact: Array<{ distance: number }>, distanceOf: Map<string, number>): number {
  const expected = Math.min(k, exact.length);
  if (expected === 0) return 1;
  const kth = exact[expected - 1]!.distance;
  const hits = found.slice(0, k).filter((id) => (distanceOf.get(id) ?? Infinity) <= kth + TIE).length;
  return hits / expected;
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** Each query's recall, rows and timings, summed up as a row of the table. */
function tally() {
  const at10: number[] = [], at50: number[] = [], rows: number[] = [], elapsed: number[] = [], exactElapsed: number[] = [];
  return {
    add(found: string[], exact: Array<{ distance: number }>, distanceOf: Map<string, number>, nearestMs: number, exactMs: number) {
      at10.push(recallAt(10, found, exact, distanceOf));
      at50.push(recallAt(NEAREST_ASKED, found, exact, distanceOf));
      rows.push(found.length);
      elapsed.push(nearestMs);
      exactElapsed.push(exactMs);
    },
    row(name: string, size: number, strategies: string[]): RecallRow {
      return {
        name,
        artifacts: size,
        recallAt10: { mean: mean(at10), worst: Math.min(...at10) },
        recallAt50: { mean: mean(at50), worst: Math.min(...at50) },
        fewestRows: Math.min(...rows),
        expectedRows: Math.min(NEAREST_ASKED, size),
        strategies,
        nearestP50: percentile(elapsed, 0.5),
        exactP50: percentile(exactElapsed, 0.5),
      };
    },
  };
}

export async function measureRecall(database: Database, workspace: { name: string; id: string; artifacts: number }, queries: QueryVector[]): Promise<RecallRow> {
  const db = database.prisma;
  const [{ vectorType }] = await db.$queryRawUnsafe<[{ vectorType: string }]>(
    `SELECT format_type(atttypid, atttypmod) AS "vectorType" FROM pg_attribute WHERE attrelid = 'artifact_embeddings'::regclass AND attname = 'embedding'`,
  );
  // A repository of its own: its strategy cache starts empty, as in a fresh process.
  const repository = createArtifactSearchRepository(db);
  const figures = tally();
  const strategies = new Set<string>();
  for (const query of queries) {
    const vector = toVectorLiteral(query.vector);
    const sent = performance.now();
    const found = await repository.nearest(workspace.id, query);
    const nearestMs = performance.now() - sent;
    strategies.add(String(found.strategy));
    const exactSent = performance.now();
    const exact = await db.$queryRawUnsafe<Array<{ id: string; distance: number }>>(exactNearest(vectorType), vector, workspace.id, query.model, NEAREST_ASKED);
    const exactMs = performance.now() - exactSent;
    const distanceOf = new Map(exact.map((row) => [row.id, Number(row.distance)]));
    const missing = found.ids.filter((id) => !distanceOf.has(id));
    if (missing.length > 0) {
      const others = await db.$queryRawUnsafe<Array<{ id: string; distance: number }>>(distancesOf(vectorType), vector, workspace.id, query.model, missing);
      for (const row of others) distanceOf.set(row.id, Number(row.distance));
    }
    figures.add(found.ids, exact.map((row) => ({ distance: Number(row.distance) })), distanceOf, nearestMs, exactMs);
  }
  return figures.row(workspace.name, workspace.artifacts, [...strategies]);
}

/** The tables whose rows hold one vector each, and which of their rows a search reads. */
const COLUMN_TABLES = {
  memories: { where: (workspaceId: string) => Prisma.sql`t.workspace_id = ${workspaceId} AND t.active`, scoped: false },
  query_patterns: { where: (workspaceId: string) => Prisma.sql`t.workspace_id = ${workspaceId}`, scoped: true },
} as const;
export type ColumnTable = keyof typeof COLUMN_TABLES;

/**
 * The same for memories or one data source's patterns: the search's own nearest statement
 * (`ownColumnVectors`, as the repositories build it) against an exact scan of the same rows.
 */
export async function measureColumnRecall(
  database: Database,
  table: ColumnTable,
  workspace: { name: string; id: string; rows: number },
  queries: QueryVector[],
): Promise<RecallRow> {
  const db = database.prisma;
  const [source] = await db.$queryRaw<Array<{ id: string }>>`SELECT id FROM data_sources WHERE workspace_id = ${workspace.id} ORDER BY name LIMIT 1`;
  const { where: whereOf, scoped } = COLUMN_TABLES[table];
  const where = scoped && source ? Prisma.sql`${whereOf(workspace.id)} AND t.data_source_id = ${source.id}` : whereOf(workspace.id);
  const indexes = createVectorIndexRepository(db);
  const ownIndex = async () => (await indexes.ownIndexes(workspace.id)).get(table);
  const vectors = ownColumnVectors(table, where, { workspaceId: workspace.id, scope: scoped ? source?.id : undefined, ownIndex, exactDistance: indexes.exactDistance });
  const strategy = (await ownIndex()) ? "index" : "exact";
  const figures = tally();
  for (const query of queries) {
    const vector = Prisma.sql`${toVectorLiteral(query.vector)}::halfvec`;
    const sent = performance.now();
    const found = await db.$queryRaw<Array<{ id: string; distance: number }>>(await vectors.nearest(query));
    const nearestMs = performance.now() - sent;
    const exactSent = performance.now();
    const exact = await db.$queryRaw<Array<{ id: string; distance: number }>>`
      SELECT t.id, (t.embedding <=> ${vector}) + 0 AS distance FROM ${Prisma.raw(`"${table}"`)} t
      WHERE ${where} AND t.embedding_model = ${query.model} AND t.embedding IS NOT NULL
      ORDER BY distance, t.id LIMIT ${NEAREST_ASKED}`;
    const exactMs = performance.now() - exactSent;
    const distanceOf = new Map([...found, ...exact].map((row) => [row.id, Number(row.distance)]));
    figures.add(found.map((row) => row.id), exact.map((row) => ({ distance: Number(row.distance) })), distanceOf, nearestMs, exactMs);
  }
  return figures.row(workspace.name, workspace.rows, [strategy]);
}

/**
 * Recall of the large workspace's own indexes when a search reads other numbers of lists
 * (SCALE_PROBES): what chooses `probesFor`. Each index's setting is put back afterwards.
 */
export async function sweepProbes(
  database: Database,
  workspaceId: string,
  probeCounts: number[],
  measure: (table: "artifact_embeddings" | ColumnTable) => Promise<RecallRow>,
): Promise<string> {
  const db = database.prisma;
  const indexes = await db.$queryRaw<Array<{ table: "artifact_embeddings" | ColumnTable; probes: number; lists: number }>>`
    SELECT i.vector_table AS "table", i.probes, (regexp_match(c.reloptions::text, 'lists=([0-9]+)'))[1]::int AS lists
    FROM workspace_vector_indexes i JOIN pg_class c ON c.relname = i.index_name
    WHERE i.workspace_id = ${workspaceId} ORDER BY i.vector_table`;
  const lines = ["| table | lists | read | recall@10 mean / worst | recall@50 mean / worst | nearest p50 |", "| --- | --- | --- | --- | --- | --- |"];
  for (const index of indexes) {
    try {
      for (const probes of [...new Set([index.probes, ...probeCounts])].sort((a, b) => a - b)) {
        await db.$executeRaw`UPDATE workspace_vector_indexes SET probes = ${probes} WHERE workspace_id = ${workspaceId} AND vector_table = ${index.table}`;
        const row = await measure(index.table);
        const mark = probes === index.probes ? " (the service's)" : "";
        lines.push(
          `| ${index.table} | ${index.lists} | ${probes}${mark} | ${row.recallAt10.mean.toFixed(3)} / ${row.recallAt10.worst.toFixed(2)} | ${row.recallAt50.mean.toFixed(3)} / ${row.recallAt50.worst.toFixed(2)} | ${row.nearestP50.toFixed(1)} ms |`,
        );
      }
    } finally {
      await db.$executeRaw`UPDATE workspace_vector_indexes SET probes = ${index.probes} WHERE workspace_id = ${workspaceId} AND vector_table = ${index.table}`;
    }
  }
  return `Lists read by the large workspace's own indexes (SCALE_PROBES), the same questions:\n\n${lines.join("\n")}`;
}
