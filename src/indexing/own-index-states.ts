import type { VectorIndexRepository, VectorTable } from "../repositories/vector-index.repository";

/** The admin index state's name of each table of vectors. */
const KIND_OF: Record<VectorTable, "artifacts" | "memories" | "queryPatterns" | "errorLearnings"> = {
  artifact_embeddings: "artifacts",
  memories: "memories",
  query_patterns: "queryPatterns",
  error_learnings: "errorLearnings",
};

export interface OwnIndexReport {
  state: "exactScan" | "built" | "unbuildable";
  documents: number | null;
  probes: number | null;
  vectors: number | null;
  error: string | null;
  at: string | null;
}

const EXACT_SCAN: OwnIndexReport = { state: "exactScan", documents: null, probes: null, vectors: null, error: null, at: null };

/** How each kind of a workspace's rows is searched: through its own index, exactly, or exactly because its index could not be built. */
export async function ownIndexStates(vectorIndexes: VectorIndexRepository, workspaceId: string): Promise<Record<(typeof KIND_OF)[VectorTable], OwnIndexReport>> {
  const report = { artifacts: EXACT_SCAN, memories: EXACT_SCAN, queryPatterns: EXACT_SCAN, errorLearnings: EXACT_SCAN };
  for (const index of await vectorIndexes.states(workspaceId)) {
    report[KIND_OF[index.table]] =
      index.state === "built"
        ? { state: "built", documents: index.documents, probes: index.probes, vectors: null, error: null, at: index.at.toISOString() }
        : { state: "unbuildable", documents: null, probes: null, vectors: index.vectors, error: index.error, at: index.at.toISOString() };
  }
  return report;
}
