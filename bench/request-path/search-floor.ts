import http from "node:http";
import { toVectorLiteral } from "../../src/embeddings/embeddings-provider";
import { LocalEmbeddings } from "../../src/embeddings/local-embeddings";
import { realisticQuestion } from "../../tests/support/realistic-workspace";
import { floorWorkspace, openFloorDb, serveUntilSigterm, type FloorDb } from "./floor-db";
import { exactNearestVectors, nearestVectors, shareFound } from "./nearest-statements";
import { FLOOR_RECALL_QUESTIONS } from "./questions";

// The search floor, a process of its own: `GET /search?q=` embeds the question with the service's
// model on the model's query lane (LocalEmbeddings.embedQuery, its own thread, as the service
// does), then reads the 10 nearest artifact vectors through an HNSW index this floor builds on
// the workspace's searchable vectors at start (and drops on exit), and answers their artifact ids.
// No framework, authentication, validation, words, fusion or rows to read: the least work that
// answers a question by meaning. The model is given no time budget: the floor always embeds.
// On PostgreSQL, the floor's index on the same database as the service's own indexes, its
// sessions make the service's IVFFlat index (if any) unattractive to the planner (below).

const INDEX = "request_path_floor_hnsw";
const RECALL_QUESTIONS = 40;

async function main() {
  const workspaceId = floorWorkspace();
  // Past OWN_INDEX_MIN_VECTORS the service has an IVFFlat index of its own on the same rows, which
  // the planner prefers (reading 1 list by default): read through it, the floor would do less than
  // an ANN search. Asked to read every list, it costs more than the HNSW index, which the planner
  // then takes (checked below with EXPLAIN).
  const db = await openFloorDb(["SET ivfflat.probes = 32768"]);
  const scope = `workspace_id = '${workspaceId}' AND searchable`;
  const started = performance.now();
  await db.query(`DROP INDEX IF EXISTS ${INDEX}`);
  // The column is halfvec(512) (migration search_at_scale); pgvector's default m and ef_construction.
  await db.query(`CREATE INDEX ${INDEX} ON artifact_embeddings USING hnsw (embedding halfvec_cosine_ops) WHERE ${scope}`);
  await db.query("ANALYZE artifact_embeddings");
  const buildMs = performance.now() - started;
  const statement = `SELECT artifact_id FROM artifact_embeddings WHERE ${scope} ORDER BY embedding <=> $1::halfvec(512) LIMIT 10`;
  const embeddings = new LocalEmbeddings({ indexThreads: 0, queryBudgetMs: 600_000 });
  const probe = toVectorLiteral(await embeddings.embedQuery("warm up"));
  const plan = (await db.query<{ "QUERY PLAN": string }>(`EXPLAIN ${statement.replace("$1", `'${probe}'`)}`)).map((row) => row["QUERY PLAN"]).join("\n");
  if (!plan.includes(INDEX)) throw new Error(`the floor's statement does not use its HNSW index:\n${plan}`);
  const { count } = (await db.query<{ count: number }>(`SELECT count(*)::int AS count FROM artifact_embeddings WHERE ${scope} AND embedding IS NOT NULL`))[0]!;
  const recall = await recallOfIndex(db, embeddings, scope);
  console.log(
    `search floor: HNSW index on ${count} vectors built in ${(buildMs / 1000).toFixed(1)} s; it finds ${recall.found.toFixed(3)} of the exact 10 nearest vectors (recall@10, ${recall.questions} questions outside the measured stream)`,
  );

  const server = http.createServer((req, res) => {
    const question = new URL(req.url ?? "/", "http://floor").searchParams.get("q") ?? "";
    embeddings
      .embedQuery(question)
      .then((vector) => db.query<{ artifact_id: string }>(statement, [toVectorLiteral(vector)]))
      .then(
        (rows) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify([...new Set(rows.map((row) => row.artifact_id))])),
        (error: unknown) => res.writeHead(500).end(String(error)),
      );
  });
  serveUntilSigterm(server, "search floor", async () => {
    await db.query(`DROP INDEX IF EXISTS ${INDEX}`);
    await embeddings.close();
    await db.close();
  });
}

/**
 * How much of the exact answer the floor's index look-up finds: the floor does the least work only
 * if it answers about as well as the service, whose own index is held to 0.99 of the exact 10
 * nearest (docs/decisions.md, "Approximate index"). Its 10 nearest vectors through the index
 * against an exact scan, on questions of their own.
 */
async function recallOfIndex(db: FloorDb, embeddings: LocalEmbeddings, scope: string): Promise<{ found: number; questions: number }> {
  const questions = [...new Set(Array.from({ length: RECALL_QUESTIONS }, (_, i) => realisticQuestion(FLOOR_RECALL_QUESTIONS + i)))];
  let found = 0;
  for (const question of questions) {
    const vector = toVectorLiteral(await embeddings.embedQuery(question));
    const indexed = await db.query<{ id: string }>(nearestVectors(scope), [vector]);
    const exact = await db.query<{ id: string }>(exactNearestVectors(scope), [vector]);
    found += shareFound(
      indexed.map((row) => row.id),
      exact.map((row) => row.id),
    );
  }
  return { found: found / questions.length, questions: questions.length };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
