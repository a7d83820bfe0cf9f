-- A workspace's own vector index the upkeep could not build (src/indexing/vector-index-maintenance.ts):
-- what it was asked to hold, the memory it was allowed (INDEX_BUILD_MEMORY_MB) and why it failed.
-- The upkeep tries it again only once the workspace's vectors have changed materially or the
-- allowance has; until then the workspace is searched exactly and the admin index state says so.
CREATE TABLE "workspace_vector_index_refusals" (
    "workspace_id" TEXT NOT NULL,
    "vector_table" TEXT NOT NULL,
    "vectors" INTEGER NOT NULL,
    "memory_cap_kb" INTEGER NOT NULL,
    "error" TEXT NOT NULL,
    "refused_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "workspace_vector_index_refusals_pkey" PRIMARY KEY ("workspace_id", "vector_table")
);
ALTER TABLE "workspace_vector_index_refusals" ADD CONSTRAINT "workspace_vector_index_refusals_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE;
