import { Client } from "pg";
import { newId } from "../../src/lib/ids";
import { workspaceWriter, type Corpus, type WorkspaceWriter } from "./corpus";
import {
  INSERT_ARTIFACTS,
  INSERT_LEARNINGS,
  INSERT_MEMORIES,
  INSERT_PATTERNS,
  SEEDED_INDEXES,
  WAREHOUSE_ANNOTATIONS,
  WAREHOUSE_SCHEMA,
  WORD_WEIGHT,
  loadVectors,
  sessionSetup,
} from "./seed-statements";
import { randomFrom, type Random } from "./vocabulary";

// Seeds a migrated database straight through SQL: workspaces of validated artifacts (two vector
// rows each), active memories, a data source with query patterns and error learnings. Rows go in
// by batches on two connections (both cores make vectors); the secondary indexes of the seeded
// tables are dropped first and built once at the end, which is much faster than maintaining
// the GIN indexes row by row.

export interface WorkspacePlan {
  name: string;
  domain: number;
  artifacts: number;
  memories: number;
  patterns: number;
  /** Seeds the texts: two plans with the same content hold the same rows (but their own ids). */
  content: string;
}

export interface SeededWorkspace extends WorkspacePlan {
  id: string;
}

/** The model's vectors of the corpus: one per template, one per word. */
export interface CorpusVectors {
  model: string;
  templates: number[][];
  words: number[][];
}

export interface SeedTimings {
  rowsMs: number;
  indexesMs: number;
  /** On a Citus coordinator: how long `npm run migrate` took to distribute the seeded rows. */
  distributeMs?: number;
}

export const DATA_SOURCE_NAME = "warehouse";
const BATCH_ROWS = 2_000;
const LEARNINGS_PER_SOURCE = 20;
const CONNECTIONS = 2;
/** Ages of rows in minutes: up to two years back. */
const MAX_AGE_MINUTES = 1_000_000;

type Job = { workspace: SeededWorkspace; dataSourceId: string; kind: "artifacts" | "memories" | "patterns" | "learnings"; start: number; count: number };

const literal = (vector: number[]) => `[${vector.join(",")}]`;
const age = (random: Random) => Math.floor(random() * MAX_AGE_MINUTES);

function batchParameters(job: Job, writer: WorkspaceWriter, random: Random): unknown[] {
  const rows = Array.from({ length: job.count });
  switch (job.kind) {
    case "artifacts": {
      const texts = rows.map(() => writer.artifact(random));
      return [
        texts.map(() => newId("art")), texts.map((t) => t.summary), texts.map((t) => t.why), texts.map((t) => JSON.stringify(t.keyFindings)),
        texts.map((t) => t.recommendation), texts.map(() => age(random)), texts.map((t) => t.template),
        texts.map((t) => t.headlineWords[0]), texts.map((t) => t.headlineWords[1]), texts.map((t) => t.bodyWords[0]), texts.map((t) => t.bodyWords[1]),
      ];
    }
    case "memories": {
      const texts = rows.map(() => writer.memory(random));
      return [
        texts.map(() => newId("mem")), texts.map((t) => t.type), texts.map((t) => t.statement), texts.map((t) => t.goingForward),
        texts.map(() => age(random)), texts.map((t) => t.template), texts.map((t) => t.words[0]), texts.map((t) => t.words[1]),
      ];
    }
    case "patterns": {
      const texts = rows.map(() => writer.pattern(random));
      return [
        job.dataSourceId, texts.map(() => newId("qp")), texts.map((t) => t.question), texts.map((t) => t.sql), texts.map((t) => t.resultSummary),
        texts.map((t) => t.successCount), texts.map(() => age(random)), texts.map((t) => t.template), texts.map((t) => t.words[0]), texts.map((t) => t.words[1]),
      ];
    }
    case "learnings": {
      const texts = rows.map(() => writer.learning(random));
      return [
        job.dataSourceId, texts.map(() => newId("el")), texts.map((t) => t.failedSql), texts.map((t) => t.errorMessage), texts.map((t) => t.learning),
        texts.map(() => age(random)), texts.map((t) => t.template), texts.map((t) => t.words[0]), texts.map((t) => t.words[1]),
      ];
    }
  }
}

const STATEMENT = { artifacts: INSERT_ARTIFACTS, memories: INSERT_MEMORIES, patterns: INSERT_PATTERNS, learnings: INSERT_LEARNINGS } as const;

/** The batches of every workspace, the large ones' interleaved so that both connections share them. */
function jobsOf(workspaces: Array<{ workspace: SeededWorkspace; dataSourceId: string }>): Job[] {
  const jobs: Job[] = [];
  for (const { workspace, dataSourceId } of workspaces) {
    const sizes = { artifacts: workspace.artifacts, memories: workspace.memories, patterns: workspace.patterns, learnings: workspace.patterns > 0 ? LEARNINGS_PER_SOURCE : 0 };
    for (const kind of ["artifacts", "memories", "patterns", "learnings"] as const) {
      for (let start = 0; start < sizes[kind]; start += BATCH_ROWS) jobs.push({ workspace, dataSourceId, kind, start, count: Math.min(BATCH_ROWS, sizes[kind] - start) });
    }
  }
  return jobs.sort((a, b) => b.workspace.artifacts - a.workspace.artifacts);
}

async function prepareSession(client: Client, vectors: CorpusVectors): Promise<void> {
  for (const statement of sessionSetup) await client.query(statement);
  const words = vectors.words.map((vector) => vector.map((value) => value * WORD_WEIGHT));
  for (const [table, list] of [["seed_templates", vectors.templates], ["seed_words", words]] as const) {
    for (let start = 0; start < list.length; start += 1_000) {
      const part = list.slice(start, start + 1_000);
      await client.query(loadVectors(table), [part.map((_, i) => start + i), part.map(literal)]);
    }
  }
}

/** Seeds one database (migrated, empty) with the planned workspaces; returns them with their ids. */
export async function seedDatabase(url: string, plans: WorkspacePlan[], corpus: Corpus, vectors: CorpusVectors): Promise<{ workspaces: SeededWorkspace[]; timings: SeedTimings }> {
  const clients = Array.from({ length: CONNECTIONS }, () => new Client({ connectionString: url }));
  try {
    await Promise.all(clients.map((client) => client.connect()));
    const [first] = clients as [Client];
    const started = performance.now();
    const indexes = (await first.query<{ name: string; definition: string }>(SEEDED_INDEXES)).rows;
    for (const index of indexes) await first.query(`DROP INDEX "${index.name}"`);

    const organizationId = newId("org");
    await first.query("INSERT INTO organizations (id, name) VALUES ($1, 'Scale bench')", [organizationId]);
    const seeded: Array<{ workspace: SeededWorkspace; dataSourceId: string }> = [];
    for (const plan of plans) {
      const workspace = { ...plan, id: newId("ws") };
      const dataSourceId = newId("ds");
      await first.query("INSERT INTO workspaces (id, organization_id, name, context, updated_at) VALUES ($1, $2, $3, $4, now())", [
        workspace.id, organizationId, plan.name, "A workspace of the scale bench. Fiscal year starts in April.",
      ]);
      await first.query(
        `INSERT INTO data_sources (id, workspace_id, name, connector_type, status, schema, table_annotations, connection_ref, updated_at)
         VALUES ($1, $2, $3, 'postgres', 'connected', $4::jsonb, $5::jsonb, 'vault://warehouse', now())`,
        [dataSourceId, workspace.id, DATA_SOURCE_NAME, JSON.stringify(WAREHOUSE_SCHEMA), JSON.stringify(WAREHOUSE_ANNOTATIONS)],
      );
      seeded.push({ workspace, dataSourceId });
    }

    await Promise.all(clients.map((client) => prepareSession(client, vectors)));
    const queue = jobsOf(seeded);
    const writers = new Map<number, WorkspaceWriter>();
    const writerOf = ({ domain }: SeededWorkspace) => writers.get(domain) ?? writers.set(domain, workspaceWriter(corpus, domain)).get(domain)!;
    await Promise.all(
      clients.map(async (client) => {
        try {
          for (let job = queue.shift(); job; job = queue.shift()) {
            const random = randomFrom(`${job.workspace.content}:${job.kind}:${job.start}`);
            await client.query(STATEMENT[job.kind], [job.workspace.id, vectors.model, ...batchParameters(job, writerOf(job.workspace), random)]);
          }
        } catch (error) {
          queue.length = 0;
          throw error;
        }
      }),
    );
    const rowsMs = performance.now() - started;

    const indexesStarted = performance.now();
    // Index builds sort and gather in memory when they have room to.
    await first.query("SET maintenance_work_mem = '1GB'");
    for (const index of indexes) await first.query(index.definition);
    return { workspaces: seeded.map(({ workspace }) => workspace), timings: { rowsMs, indexesMs: performance.now() - indexesStarted } };
  } finally {
    await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
  }
}

/** Fresh planner statistics and a visibility map for the seeded tables, as a long-lived database has. */
export async function vacuumAnalyze(url: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    // Citus vacuums a distributed table's shards only when the table is named.
    const { rows } = await client.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r'
         AND EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus')`,
    );
    await client.query(rows.length > 0 ? `VACUUM ANALYZE ${rows.map((row) => `"${row.name}"`).join(", ")}` : "VACUUM ANALYZE");
  } finally {
    await client.end();
  }
}
