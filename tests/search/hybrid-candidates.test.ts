import path from "node:path";
import { Prisma } from "../../src/generated/prisma/client";
import { exactDistanceOn } from "../../src/db/vector-distance";
import { hybridCandidates, ownColumnVectors, type CandidateScores, type HybridSearchSource } from "../../src/search/hybrid-candidates";
import type { QueryVector } from "../../src/search/hybrid-query";
import { createWorkspaceWithKey, importContent } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";
import { waitFor } from "../support/wait-for";
import { spawnTracked } from "../support/child-processes";

const ROOT = path.resolve(__dirname, "../..");
const TSX = path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");

let t: TestApp;
let source: HybridSearchSource;

beforeAll(async () => {
  t = await createTestApp();
  const ws = await createWorkspaceWithKey(t.services);
  await importContent(t.services, ws.workspaceId, {
    memories: [
      { type: "rule", statement: "Report scooter churn by city." },
      { type: "rule", statement: "Fleet reliability is measured per vehicle type." },
    ],
  });
  await t.services.indexer.runOnce();
  const where = Prisma.sql`t.workspace_id = ${ws.workspaceId} AND t.active`;
  source = {
    table: "memories",
    where,
    collection: { workspaceId: ws.workspaceId, name: "memories", keyOwner: "workspace_id", keyOwnerId: ws.workspaceId },
    columns: { statement: "t.statement" },
    vectors: ownColumnVectors("memories", where, { workspaceId: ws.workspaceId, ownIndex: async () => undefined, exactDistance: exactDistanceOn(t.database.kind) }),
  };
});
afterAll(() => t.close());

/** The statements a search sends, in order, each named by its half ("text" has the collection's figures). */
function recording() {
  const sent: string[] = [];
  const run = (sql: Prisma.Sql) => {
    sent.push(sql.sql.includes("lexeme_stats") ? "text" : "vector");
    return t.database.prisma.$queryRaw<Array<CandidateScores & { statement: string }>>(sql);
  };
  return { sent, run };
}

const vectorOf = async (text: string): Promise<QueryVector> => ({ vector: (await t.services.embeddings.embed([text]))[0]!, model: t.services.embeddings.model });

describe("the two statements of a search", () => {
  it("sends the text statement before the query's vector is ready", async () => {
    const { sent, run } = recording();
    let release!: (vector: QueryVector) => void;
    const pending = new Promise<QueryVector>((resolve) => (release = resolve));
    const found = hybridCandidates(run, source, { text: "scooter churn", vector: pending });
    await waitFor(() => sent.length > 0, { what: "the first statement" });
    expect(sent).toEqual(["text"]);
    release(await vectorOf("scooter churn"));
    const candidates = await found;
    expect(sent).toEqual(["text", "vector"]);
    expect(candidates.map((candidate) => candidate.statement).sort()).toEqual(["Fleet reliability is measured per vehicle type.", "Report scooter churn by city."]);
  });

  it("gives every candidate its similarity, and the words and figures the text statement found", async () => {
    const { run } = recording();
    const candidates = await hybridCandidates(run, source, { text: "scooter churn", vector: vectorOf("scooter churn") });
    const byWords = candidates.find((candidate) => candidate.statement.startsWith("Report"))!;
    const byMeaning = candidates.find((candidate) => candidate.statement.startsWith("Fleet"))!;
    expect(byWords.similarity).toEqual(expect.any(Number));
    expect(byWords.matchedLexemes).toEqual(["churn", "scooter"]);
    expect(byMeaning.similarity).toEqual(expect.any(Number));
    expect(byMeaning.matchedLexemes).toEqual([]);
    for (const candidate of candidates) expect(candidate.queryLexemes).toEqual(expect.arrayContaining(["scooter", "churn"]));
  });

  it("answers each value once: the figures on one row, no fields from the vector statement for the text statement's candidates", async () => {
    const answers: Record<string, Array<CandidateScores & { statement: string | null }>> = {};
    const run = async (sql: Prisma.Sql) => {
      const answer = await t.database.prisma.$queryRaw<Array<CandidateScores & { statement: string | null }>>(sql);
      answers[sql.sql.includes("lexeme_stats") ? "text" : "vector"] = answer;
      return answer as Array<CandidateScores & { statement: string }>;
    };
    const candidates = await hybridCandidates(run, source, { text: "scooter churn", vector: vectorOf("scooter churn") });
    const known = new Set(answers.text!.map((row) => row.id));
    expect(known.size).toBe(1);
    for (const row of answers.vector!) expect(row.statement === null).toBe(known.has(row.id));
    for (const candidate of candidates) {
      expect(candidate.statement).toEqual(expect.any(String));
      expect(candidate.documentFrequency).toEqual(expect.objectContaining({ scooter: 1 }));
    }
    // Both memories hold a word of this question: two text rows, the figures on one of them.
    await hybridCandidates(run, source, { text: "scooter fleet", vector: vectorOf("scooter fleet") });
    expect(answers.text).toHaveLength(2);
    expect(answers.text!.filter((row) => row.documentFrequency !== null)).toHaveLength(1);
  });

  it("hands the vector source the text statement's candidates, whose distances a held copy answers without comparing their vectors in the statement", async () => {
    const asked: Array<readonly string[] | undefined> = [];
    const recorded: HybridSearchSource = {
      ...source,
      vectors: {
        ...source.vectors,
        nearest: (vector, known) => {
          asked.push(known);
          return source.vectors.nearest(vector, known);
        },
      },
    };
    const answers: Record<string, CandidateScores[]> = {};
    const run = async (sql: Prisma.Sql) => {
      const answer = await t.database.prisma.$queryRaw<Array<CandidateScores & { statement: string }>>(sql);
      answers[sql.sql.includes("lexeme_stats") ? "text" : "vector"] = answer;
      return answer;
    };
    await hybridCandidates(run, recorded, { text: "scooter fleet", vector: vectorOf("scooter fleet") });
    expect(answers.text!.length).toBeGreaterThan(0);
    expect(asked).toHaveLength(1);
    expect([...asked[0]!].sort()).toEqual(answers.text!.map((row) => row.id).sort());
  });

  it("runs the text statement alone when there is no vector", async () => {
    const { sent, run } = recording();
    const candidates = await hybridCandidates(run, source, { text: "scooter churn", vector: Promise.resolve(undefined) });
    expect(sent).toEqual(["text"]);
    expect(candidates.map((candidate) => candidate.similarity)).toEqual([null]);
  });

  it("reads the collection's figures in the vector statement when a filter leaves the text statement no hit", async () => {
    // Every full-text hit fails the filter, while the nearest rows hold the query's words: as when,
    // under a selective filter in a large workspace, rarer words use up the hits read and a common
    // word a nearest item holds is not read. Its words still count, with the collection's figures.
    const filtered = { ...source, filter: Prisma.sql`t.statement LIKE 'No statement starts so%'` };
    const { sent, run } = recording();
    const candidates = await hybridCandidates(run, filtered, { text: "scooter churn", vector: vectorOf("scooter churn") });
    expect(sent).toEqual(["text", "text"]);
    const byWords = candidates.find((candidate) => candidate.statement.startsWith("Report"))!;
    expect(byWords.matchedLexemes).toEqual(["churn", "scooter"]);
    expect(Number(byWords.documents)).toBe(2);
    expect(byWords.documentFrequency).toEqual({ scooter: 1, churn: 1 });
    expect(byWords.queryLexemes).toEqual(expect.arrayContaining(["scooter", "churn"]));
  });

  it("leaves the figures to the text statement when it found hits, filter or not", async () => {
    const filtered = { ...source, filter: Prisma.sql`t.statement LIKE 'Report%'` };
    const { sent, run } = recording();
    const candidates = await hybridCandidates(run, filtered, { text: "scooter churn", vector: vectorOf("scooter churn") });
    expect(sent).toEqual(["text", "vector"]);
    expect(candidates.find((candidate) => candidate.statement.startsWith("Report"))!.documentFrequency).toEqual({ scooter: 1, churn: 1 });
  });

  it("reports a failed text statement to the caller, never as an unhandled rejection that would end the process", async () => {
    const child = spawnTracked(process.execPath, [TSX, "tests/support/failing-text-statement.ts"], { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: "" } });
    let output = "";
    child.stdout!.on("data", (chunk) => (output += String(chunk)));
    child.stderr!.on("data", (chunk) => (output += String(chunk)));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(output).toContain("caught: database gone");
    expect(code).toBe(0);
  });
});

describe("the full-text keys", () => {
  it("are in the index as soon as they are written, with nothing left in a pending list every search would read", async () => {
    // The import above wrote two memories: with GIN's fast update their keys would still be pending.
    for (const index of ["memories_search_keys_idx", "artifacts_search_keys_idx", "query_patterns_search_keys_idx", "error_learnings_search_keys_idx"]) {
      const [{ pending }] = await t.database.prisma.$queryRawUnsafe<[{ pending: number }]>(`SELECT gin_clean_pending_list('"${index}"'::regclass)::int AS pending`);
      expect({ index, pending }).toEqual({ index, pending: 0 });
    }
  });
});
