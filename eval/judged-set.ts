import { readFileSync } from "node:fs";
import path from "node:path";
import { ImportDocumentSchema } from "../src/contracts/import";
import type { Services } from "../src/services";
import { artifactBodyText } from "../src/search/artifact-body-text";
import type { Grades } from "./metrics";
import { placer, readSplitFile, type Placement } from "./split";

export type QueryKind = "paraphrase" | "exact" | "specific" | "short";

export interface JudgedQuery {
  query: string;
  kind: QueryKind;
  relevant: Grades;
  /** Query intelligence only: the data source asked. */
  dataSource?: string;
}

/** A judged query with the half of the set it belongs to (eval/split.ts). */
export type PlacedQuery = JudgedQuery & Placement;

export interface Judgements {
  artifacts: PlacedQuery[];
  memories: PlacedQuery[];
  queryIntelligence: PlacedQuery[];
  /** Queries about nothing in the workspace: every endpoint should return nothing or little. */
  unrelated: string[];
}

/** judgements.json as written: the queries without their half. */
interface StoredJudgements {
  artifacts: JudgedQuery[];
  memories: JudgedQuery[];
  queryIntelligence: JudgedQuery[];
  unrelated: string[];
}

type Keyed<T> = T & { key: string };
interface RawWorkspace {
  memories: Array<Keyed<{ statement: string; goingForward?: string; active?: boolean }>>;
  dataSources: Array<{
    name: string;
    queryPatterns: Array<Keyed<{ question: string; sql: string; resultSummary?: string }>>;
    errorLearnings: Array<Keyed<{ failedSql: string; errorMessage: string; learning: string }>>;
  }>;
  artifacts: Array<Keyed<{ summary: string; why: string; recommendation?: string; keyFindings?: string[]; content?: unknown }>>;
}

/**
 * A judged set as stored under eval/<company>/: the import document (items carry a `key`), the
 * judgements, and optionally `split.json`, which places each query in the tuning or held-out half.
 */
export interface JudgedSet {
  name: string;
  workspace: RawWorkspace;
  judgements: Judgements;
}

export const DEFAULT_SET_DIR = path.join(__dirname, "cobalt-cycles");
/**
 * The sets `npm run eval` measures: Cobalt Cycles, split in halves; Fenmoor Health, tuning whole
 * (its split.json says why); Larchmont Software, held-out whole.
 */
export const EVAL_SET_DIRS = [DEFAULT_SET_DIR, path.join(__dirname, "fenmoor-health"), path.join(__dirname, "larchmont-software")];

export function loadJudgedSet(dir: string = DEFAULT_SET_DIR): JudgedSet {
  const read = (file: string) => JSON.parse(readFileSync(path.join(dir, file), "utf8"));
  const stored: StoredJudgements = read("judgements.json");
  const place = placer(readSplitFile(dir));
  const placed = (queries: JudgedQuery[]) => queries.map((query) => ({ ...query, ...place(query) }));
  return {
    name: path.basename(dir),
    workspace: read("workspace.json"),
    judgements: {
      artifacts: placed(stored.artifacts),
      memories: placed(stored.memories),
      queryIntelligence: placed(stored.queryIntelligence),
      unrelated: stored.unrelated,
    },
  };
}

/** Where each judged key landed in the database, to read results back as keys. */
export interface ImportedSet {
  workspaceId: string;
  artifactKeyById: Map<string, string>;
  memoryKeyByStatement: Map<string, string>;
  /** Pattern questions and learning texts → key, per data source. */
  queryKeyByText: Map<string, Map<string, string>>;
  inactiveMemoryKeys: Set<string>;
  /** The texts the BM25 baseline indexes: the same fields the service searches. */
  corpus: { artifacts: Doc[]; memories: Doc[]; queryIntelligence: Map<string, Doc[]> };
}
export interface Doc {
  key: string;
  text: string;
}

const withoutKey = <T extends { key: string }>({ key: _key, ...rest }: T) => rest;

/** The set's workspace as the import document the admin import takes: keys dropped, parsed by its schema. */
export function importDocumentOf(set: JudgedSet) {
  const { workspace } = set;
  return ImportDocumentSchema.parse({
    ...workspace,
    memories: workspace.memories.map(withoutKey),
    dataSources: workspace.dataSources.map((source) => ({
      ...source,
      queryPatterns: source.queryPatterns.map(withoutKey),
      errorLearnings: source.errorLearnings.map(withoutKey),
    })),
    artifacts: workspace.artifacts.map(withoutKey),
  });
}

/** Imports the set into a new workspace through the real import service, then waits for every vector. */
export async function importJudgedSet(services: Services, set: JudgedSet): Promise<ImportedSet> {
  const { workspace } = set;
  const document = importDocumentOf(set);
  const created = await services.workspaces.create({ name: set.name });
  const { artifactIds } = await services.imports.importDocument(created.id, document);
  await services.indexer.runOnce(created.id);

  const activeMemories = workspace.memories.filter((memory) => memory.active !== false);
  const queryKeyByText = new Map<string, Map<string, string>>();
  const queryDocs = new Map<string, Doc[]>();
  for (const source of workspace.dataSources) {
    queryKeyByText.set(source.name, new Map([
      ...source.queryPatterns.map((p) => [p.question, p.key] as const),
      ...source.errorLearnings.map((l) => [l.learning, l.key] as const),
    ]));
    queryDocs.set(source.name, [
      ...source.queryPatterns.map((p) => ({ key: p.key, text: [p.question, p.sql, p.resultSummary].join("\n") })),
      ...source.errorLearnings.map((l) => ({ key: l.key, text: [l.learning, l.errorMessage, l.failedSql].join("\n") })),
    ]);
  }
  return {
    workspaceId: created.id,
    artifactKeyById: new Map(artifactIds.map((id, i) => [id, workspace.artifacts[i]!.key])),
    // A validated artifact also writes a finding memory (its summary): those compete in recall too.
    memoryKeyByStatement: new Map([
      ...workspace.memories.map((memory) => [memory.statement, memory.key] as const),
      ...workspace.artifacts.map((artifact) => [artifact.summary, `artifact:${artifact.key}`] as const),
    ]),
    queryKeyByText,
    inactiveMemoryKeys: new Set(workspace.memories.filter((memory) => memory.active === false).map((memory) => memory.key)),
    corpus: {
      artifacts: workspace.artifacts.map((a) => ({
        key: a.key,
        text: [a.summary, ...(a.keyFindings ?? []), a.why, a.recommendation ?? "", artifactBodyText(a.content)].join("\n"),
      })),
      memories: [
        ...activeMemories.map((m) => ({ key: m.key, text: [m.statement, m.goingForward ?? ""].join("\n") })),
        ...workspace.artifacts.map((a) => ({ key: `artifact:${a.key}`, text: a.summary })),
      ],
      queryIntelligence: queryDocs,
    },
  };
}
