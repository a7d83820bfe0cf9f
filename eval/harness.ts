import type { ApiKeyPrincipal } from "../src/auth/principal";
import type { SearchMode } from "../src/search/search-mode";
import type { Services } from "../src/services";
import { Bm25Index } from "./bm25";
import type { ImportedSet, JudgedQuery, JudgedSet, PlacedQuery, QueryKind } from "./judged-set";
import { meanScores, scoreRanking, type QueryScores } from "./metrics";
import { HALVES, type Half } from "./split";

export type Endpoint = "artifacts" | "memories" | "queryIntelligence";
export const ENDPOINTS: Endpoint[] = ["artifacts", "memories", "queryIntelligence"];
export const KINDS: QueryKind[] = ["paraphrase", "exact", "specific", "short"];

export interface Ranked {
  keys: string[];
  scores: number[];
  /** `lexical` when the query's vector did not come in time and the service ranked by words alone. */
  searchMode: SearchMode;
}

export interface QueryOutcome {
  endpoint: Endpoint;
  query: PlacedQuery;
  service: QueryScores;
  bm25: QueryScores;
  /** The service's ranking, for reading failures. */
  ranked: Ranked;
}

export interface EvalReport {
  outcomes: QueryOutcome[];
  /** Results each endpoint returned for queries about nothing in the workspace. */
  unrelated: Array<{ query: string; artifacts: number; memories: number; queryIntelligence: number }>;
  /** Inactive memories that came back from a recall (must be 0). */
  inactiveReturned: number;
}

/**
 * Runs the judged queries through the same service functions the REST routes call, and through
 * the BM25 baseline over the same texts.
 */
export function createRunner(services: Services, imported: ImportedSet) {
  const principal: ApiKeyPrincipal = { keyId: "eval", keyName: "eval", workspaceId: imported.workspaceId, scopes: [] };
  const keyOf = (map: Map<string, string>, text: string) => map.get(text) ?? `unjudged:${text.slice(0, 40)}`;

  const run: Record<Endpoint, (query: JudgedQuery) => Promise<Ranked>> = {
    async artifacts(query) {
      const { hits, searchMode } = await services.artifacts.search(principal, query.query, 10);
      return { keys: hits.map((hit) => keyOf(imported.artifactKeyById, hit.id)), scores: hits.map((hit) => hit.score), searchMode };
    },
    async memories(query) {
      const { hits, searchMode } = await services.memories.recall(imported.workspaceId, query.query);
      return { keys: hits.map((hit) => keyOf(imported.memoryKeyByStatement, hit.statement)), scores: hits.map((hit) => hit.score), searchMode };
    },
    async queryIntelligence(query) {
      const source = query.dataSource ?? "";
      const found = await services.dataSources.queryIntelligence(imported.workspaceId, source, query.query);
      const keys = imported.queryKeyByText.get(source) ?? new Map<string, string>();
      // Patterns and learnings in one list by score: the scores mean the same, so they compare.
      const merged = [
        ...found.patterns.map((p) => ({ key: keyOf(keys, p.question), score: p.score })),
        ...found.errorLearnings.map((l) => ({ key: keyOf(keys, l.learning), score: l.score })),
      ].sort((a, b) => b.score - a.score);
      return { keys: merged.map((m) => m.key), scores: merged.map((m) => m.score), searchMode: found.searchMode };
    },
  };

  const bm25Artifacts = new Bm25Index(imported.corpus.artifacts);
  const bm25Memories = new Bm25Index(imported.corpus.memories);
  const bm25Sources = new Map([...imported.corpus.queryIntelligence].map(([name, docs]) => [name, new Bm25Index(docs)]));
  const bm25: Record<Endpoint, (query: JudgedQuery) => string[]> = {
    artifacts: (query) => bm25Artifacts.search(query.query),
    memories: (query) => bm25Memories.search(query.query),
    queryIntelligence: (query) => bm25Sources.get(query.dataSource ?? "")?.search(query.query) ?? [],
  };

  return { run, bm25 };
}

export async function evaluate(
  services: Services,
  imported: ImportedSet,
  set: JudgedSet,
  filter: (endpoint: Endpoint, query: PlacedQuery) => boolean = () => true,
): Promise<EvalReport> {
  const { run, bm25 } = createRunner(services, imported);
  const outcomes: QueryOutcome[] = [];
  let inactiveReturned = 0;
  for (const endpoint of ENDPOINTS) {
    for (const query of set.judgements[endpoint]) {
      if (!filter(endpoint, query)) continue;
      const ranked = await run[endpoint](query);
      if (endpoint === "memories") inactiveReturned += ranked.keys.filter((key) => imported.inactiveMemoryKeys.has(key)).length;
      outcomes.push({ endpoint, query, ranked, service: scoreRanking(ranked.keys, query.relevant), bm25: scoreRanking(bm25[endpoint](query), query.relevant) });
    }
  }
  const unrelated = [];
  for (const text of set.judgements.unrelated) {
    const asQuery = (dataSource?: string): JudgedQuery => ({ query: text, kind: "short", relevant: {}, dataSource });
    unrelated.push({
      query: text,
      artifacts: (await run.artifacts(asQuery())).keys.length,
      memories: (await run.memories(asQuery())).keys.length,
      queryIntelligence: (await run.queryIntelligence(asQuery(set.workspace.dataSources[0]?.name))).keys.length,
    });
  }
  return { outcomes, unrelated, inactiveReturned };
}

/** Mean scores of the service and of BM25 over the outcomes that pass `pick`. */
export function summarise(outcomes: QueryOutcome[], pick: (outcome: QueryOutcome) => boolean) {
  const chosen = outcomes.filter(pick);
  return { service: meanScores(chosen.map((o) => o.service)), bm25: meanScores(chosen.map((o) => o.bm25)) };
}

/** One column of the report: a set, or one half of a set that is split. */
export interface Column {
  set: string;
  half: Half;
  outcomes: QueryOutcome[];
}

export const columnLabel = (column: Column) => `${column.set} ${column.half}`;

/** The report of one set as columns, tuning first; a half with no query makes none. */
export function columnsOf(set: string, report: EvalReport): Column[] {
  return HALVES.map((half) => ({ set, half, outcomes: report.outcomes.filter((o) => o.query.half === half) })).filter((c) => c.outcomes.length > 0);
}
