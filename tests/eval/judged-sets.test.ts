import { ENDPOINTS, KINDS } from "../../eval/harness";
import { EVAL_SET_DIRS, importDocumentOf, loadJudgedSet, type JudgedSet } from "../../eval/judged-set";
import { placer, readSplitFile } from "../../eval/split";

// The judged sets are data: these checks keep them whole (every graded key exists, every query in
// one half) without running the model. `npm run eval` measures them.
const [cobaltDir, fenmoorDir, larchmontDir] = EVAL_SET_DIRS as [string, string, string];
const cobalt = loadJudgedSet(cobaltDir);
const fenmoor = loadJudgedSet(fenmoorDir);
const larchmont = loadJudgedSet(larchmontDir);

const queriesOf = (set: JudgedSet) => ENDPOINTS.flatMap((endpoint) => set.judgements[endpoint].map((query) => ({ endpoint, query })));
const itemKeysOf = (set: JudgedSet) => [
  ...set.workspace.artifacts.map((a) => a.key),
  ...set.workspace.memories.map((m) => m.key),
  ...set.workspace.dataSources.flatMap((s) => [...s.queryPatterns, ...s.errorLearnings].map((item) => item.key)),
];

describe("the split of cobalt-cycles", () => {
  const split = readSplitFile(cobaltDir)!;

  it("puts every item of the workspace in exactly one topic", () => {
    const listed = split.topics.flatMap((topic) => topic.items);
    expect([...listed].sort()).toEqual([...itemKeysOf(cobalt)].sort());
  });

  it("places every judged query in exactly one half, by the topic of its answers", () => {
    const queries = queriesOf(cobalt);
    const tuning = queries.filter(({ query }) => query.half === "tuning");
    const heldOut = queries.filter(({ query }) => query.half === "held-out");
    expect(tuning.length + heldOut.length).toBe(queries.length);
    expect(queries.every(({ query }) => split.topics.some((t) => t.topic === query.topic && t.half === query.half))).toBe(true);
  });

  it("has every endpoint and query kind in both halves", () => {
    for (const half of ["tuning", "held-out"]) {
      for (const endpoint of ENDPOINTS) {
        for (const kind of KINDS) {
          expect(cobalt.judgements[endpoint].filter((q) => q.half === half && q.kind === kind).length).toBeGreaterThan(0);
        }
      }
    }
  });

  it("refuses a query whose answers lie in two topics", () => {
    const place = placer({ topics: [{ topic: "a", half: "tuning", items: ["x"] }, { topic: "b", half: "held-out", items: ["y"] }] });
    expect(() => place({ query: "q", relevant: { x: 2, y: 2 } })).toThrow(/grades 2 items of a, b/);
  });
});

describe.each([
  [fenmoor.name, fenmoor, "tuning"],
  [larchmont.name, larchmont, "held-out"],
] as const)("the %s set", (_name, set, half) => {
  it(`is ${half} whole`, () => {
    expect(queriesOf(set).every(({ query }) => query.half === half)).toBe(true);
  });

  it("imports through the admin import schema", () => {
    const document = importDocumentOf(set);
    expect(document.artifacts).toHaveLength(set.workspace.artifacts.length);
    expect(document.memories).toHaveLength(set.workspace.memories.length);
  });
});

describe.each([cobalt, fenmoor, larchmont].map((set) => [set.name, set] as const))("the judgements of %s", (_name, set) => {
  it("grade only items that exist in its workspace, never an inactive memory", () => {
    const artifacts = new Set(set.workspace.artifacts.map((a) => a.key));
    const activeMemories = new Set(set.workspace.memories.filter((m) => m.active !== false).map((m) => m.key));
    const bySource = new Map(set.workspace.dataSources.map((s) => [s.name, new Set([...s.queryPatterns, ...s.errorLearnings].map((item) => item.key))]));
    const exists = {
      artifacts: (key: string) => artifacts.has(key),
      // A validated artifact writes a finding memory, graded as `artifact:<key>`.
      memories: (key: string) => activeMemories.has(key) || artifacts.has(key.replace(/^artifact:/, "")),
      queryIntelligence: (key: string, source?: string) => bySource.get(source ?? "")?.has(key) === true,
    };
    const unknown = queriesOf(set).flatMap(({ endpoint, query }) =>
      Object.keys(query.relevant).filter((key) => !exists[endpoint](key, query.dataSource)).map((key) => `${endpoint} "${query.query}": ${key}`),
    );
    expect(unknown).toEqual([]);
  });

  it("give every query an answer (grade 2)", () => {
    expect(queriesOf(set).filter(({ query }) => !Object.values(query.relevant).includes(2))).toEqual([]);
  });
});
