-- The indexer finds its work through indexes that hold only what it looks for, so that an idle
-- indexer reads a few index pages per look whatever the size of the tables (docs/performance.md,
-- "Idle worker"). A row written or cleared for a reindex has no model: the partial indexes hold
-- those rows only, in the order the indexer claims them, across workspaces (the oldest pending
-- row) and within one (the claim). After a change of embeddings model the rows of the other model
-- are found through the model index, a few pages when every row has the current model (btree
-- deduplication keeps it small). On Citus each index is created on every shard.
CREATE INDEX "artifact_embeddings_queued_idx" ON "artifact_embeddings" ("facet", "id") WHERE "model" IS NULL;
CREATE INDEX "artifact_embeddings_workspace_queued_idx" ON "artifact_embeddings" ("workspace_id", "facet", "id") WHERE "model" IS NULL;
CREATE INDEX "artifact_embeddings_model_idx" ON "artifact_embeddings" ("model");

CREATE INDEX "memories_queued_idx" ON "memories" ("created_at", "id") WHERE "embedding_model" IS NULL;
CREATE INDEX "memories_workspace_queued_idx" ON "memories" ("workspace_id", "created_at", "id") WHERE "embedding_model" IS NULL;
CREATE INDEX "memories_embedding_model_idx" ON "memories" ("embedding_model");

CREATE INDEX "query_patterns_queued_idx" ON "query_patterns" ("created_at", "id") WHERE "embedding_model" IS NULL;
CREATE INDEX "query_patterns_workspace_queued_idx" ON "query_patterns" ("workspace_id", "created_at", "id") WHERE "embedding_model" IS NULL;
CREATE INDEX "query_patterns_embedding_model_idx" ON "query_patterns" ("embedding_model");

CREATE INDEX "error_learnings_queued_idx" ON "error_learnings" ("created_at", "id") WHERE "embedding_model" IS NULL;
CREATE INDEX "error_learnings_workspace_queued_idx" ON "error_learnings" ("workspace_id", "created_at", "id") WHERE "embedding_model" IS NULL;
CREATE INDEX "error_learnings_embedding_model_idx" ON "error_learnings" ("embedding_model");
