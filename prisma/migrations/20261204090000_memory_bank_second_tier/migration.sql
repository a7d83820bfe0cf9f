-- An artifact's memory-bank entry states the artifact's summary, which the artifact's headline
-- vector already makes findable by meaning: the indexer makes it in the second priority tier, with
-- the artifacts' body vectors, after every headline and every ledger memory. Each tier of pending
-- memories has its partial indexes, as the artifact facets have theirs (migration
-- `pending_embeddings`), so that a claim of either tier reads only that tier's rows.
DROP INDEX "memories_queued_idx";
DROP INDEX "memories_workspace_queued_idx";
CREATE INDEX "memories_ledger_queued_idx" ON "memories" ("created_at", "id") WHERE "embedding_model" IS NULL AND "artifact_id" IS NULL;
CREATE INDEX "memories_workspace_ledger_queued_idx" ON "memories" ("workspace_id", "created_at", "id") WHERE "embedding_model" IS NULL AND "artifact_id" IS NULL;
CREATE INDEX "memories_bank_queued_idx" ON "memories" ("created_at", "id") WHERE "embedding_model" IS NULL AND "artifact_id" IS NOT NULL;
CREATE INDEX "memories_workspace_bank_queued_idx" ON "memories" ("workspace_id", "created_at", "id") WHERE "embedding_model" IS NULL AND "artifact_id" IS NOT NULL;
