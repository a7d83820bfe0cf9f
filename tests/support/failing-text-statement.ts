import { Prisma } from "../../src/generated/prisma/client";
import { exactDistanceOn } from "../../src/db/vector-distance";
import { hybridCandidates, ownColumnVectors } from "../../src/search/hybrid-candidates";

// Run in a process of its own by tests/search/hybrid-candidates.test.ts: a text statement that
// fails while the query's vector is still awaited. Node ends a process on an unhandled rejection,
// so this prints its line and exits 0 only when the failure reaches the caller alone.
async function main(): Promise<void> {
  const where = Prisma.sql`true`;
  const source = {
    table: "memories" as const,
    where,
    collection: { workspaceId: "ws_none", name: "memories", keyOwner: "workspace_id" as const, keyOwnerId: "ws_none" },
    columns: { statement: "t.statement" },
    vectors: ownColumnVectors("memories", where, { workspaceId: "ws_none", ownIndex: async () => undefined, exactDistance: exactDistanceOn("embedded") }),
  };
  const slowVector = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 100));
  try {
    await hybridCandidates(() => Promise.reject(new Error("database gone")), source, { text: "scooter churn", vector: slowVector });
  } catch (error) {
    console.log(`caught: ${(error as Error).message}`);
  }
}

void main();
