// The statements that read a workspace's 10 nearest artifact vectors (`scope`: the condition on
// its searchable rows, fixed text), shared by the search floor and bench/nearest-recall.ts so that
// both measure the same look-up against the same exact answer.

/** The 10 nearest through whichever index the planner takes (the floor's HNSW index). */
export const nearestVectors = (scope: string) => `SELECT id FROM artifact_embeddings WHERE ${scope} ORDER BY embedding <=> $1::halfvec(512) LIMIT 10`;

/** The exact 10 nearest: the scan fenced by OFFSET 0, so that no index can order it. */
export const exactNearestVectors = (scope: string) =>
  `SELECT id FROM (SELECT id, embedding <=> $1::halfvec(512) AS distance FROM artifact_embeddings WHERE ${scope} AND embedding IS NOT NULL OFFSET 0) AS scanned ORDER BY distance LIMIT 10`;

/** Of the exact answer's ids, the share a look-up found. */
export function shareFound(found: string[], exact: string[]): number {
  const wanted = new Set(exact);
  return found.filter((id) => wanted.has(id)).length / Math.max(1, wanted.size);
}
