import type { Schemas, WorkspaceIntelligenceClient } from "../../clients/typescript";

export interface ChosenSource {
  name: string | undefined;
  /** Why this source, for the log. */
  because: string;
  intelligence: Schemas["QueryIntelligenceResponse"];
}

const NOTHING: Schemas["QueryIntelligenceResponse"] = { patterns: [], errorLearnings: [] };

/** Throws with the API's own `{error, code}` when a call did not succeed. */
type Ok = <T>(result: { data?: T; error?: unknown; response: Response }, what: string) => T;

/**
 * The data source whose proven SQL fits the question. A source given by the caller wins. Otherwise
 * the source that validated work on the same question used (the best-matching validated artifact
 * that names a source of this workspace): a human checked that pairing. Failing that, the source
 * whose query intelligence matches the most patterns to the question (the API returns only
 * patterns above its relevance floor), the first listed on a tie. Never simply the first source:
 * its SQL may answer another question entirely.
 */
export async function chooseSource(
  api: WorkspaceIntelligenceClient,
  ok: Ok,
  question: string,
  sources: Array<{ name: string }>,
  given: string | undefined,
): Promise<ChosenSource> {
  const intelligenceOf = async (name: string) =>
    ok(await api.GET("/api/v1/data-sources/{name}/query-intelligence", { params: { path: { name }, query: { question } } }), "GET query-intelligence");
  if (given) return { name: given, because: "DATA_SOURCE", intelligence: await intelligenceOf(given) };
  if (sources.length === 0) return { name: undefined, because: "the workspace has no data sources", intelligence: NOTHING };

  const names = new Set(sources.map((source) => source.name));
  const { results } = ok(await api.GET("/api/v1/artifacts", { params: { query: { query: question, limit: 5 } } }), "GET /api/v1/artifacts");
  for (const artifact of results) {
    const cited = artifact.dataSources?.find((source) => names.has(source.name));
    if (cited) return { name: cited.name, because: `cited by the validated artifact "${artifact.summary}"`, intelligence: await intelligenceOf(cited.name) };
  }

  let best: ChosenSource | undefined;
  for (const { name } of sources) {
    const intelligence = await intelligenceOf(name);
    if (intelligence.patterns.length > (best?.intelligence.patterns.length ?? 0)) {
      best = { name, because: `${intelligence.patterns.length} of its query patterns match the question`, intelligence };
    }
  }
  return best ?? { name: undefined, because: "no source has a query pattern matching the question", intelligence: NOTHING };
}
