-- Every primary and unique key of a table of workspace data starts with workspace_id, and a child
-- refers to its parent by (workspace_id, id). PostgreSQL's hash partitions and Citus's distributed
-- tables both require the split column in every unique key (docs/deployment.md §6), and the
-- composite foreign keys keep a child in its parent's workspace. The tables that are not one
-- workspace's are listed with their reasons in tests/support/table-distribution.ts.
--
-- On a database with data this runs in one transaction: each of the 11 tables below has its
-- primary key rebuilt (one index build, the table locked meanwhile), 5 unique indexes are built
-- again, and the 6 foreign keys are checked against the existing rows. All of those rows already
-- carry the workspace_id their parent has, since every writer copies it from the parent; a row
-- that did not would fail its foreign key here and leave the database as it was.
-- workspace_reviewers, search_term_counts and workspace_vector_indexes already had such keys.

-- 1. The foreign keys that point at the keys being replaced.
ALTER TABLE "artifacts" DROP CONSTRAINT "artifacts_created_by_key_id_fkey";
ALTER TABLE "artifact_embeddings" DROP CONSTRAINT "artifact_embeddings_artifact_id_fkey";
ALTER TABLE "memories" DROP CONSTRAINT "memories_artifact_id_fkey";
ALTER TABLE "query_patterns" DROP CONSTRAINT "query_patterns_data_source_id_fkey";
ALTER TABLE "error_learnings" DROP CONSTRAINT "error_learnings_data_source_id_fkey";
ALTER TABLE "skill_files" DROP CONSTRAINT "skill_files_skill_id_fkey";

-- 2. Primary keys.
ALTER TABLE "api_keys" DROP CONSTRAINT "api_keys_pkey", ADD CONSTRAINT "api_keys_pkey" PRIMARY KEY ("workspace_id", "id");
ALTER TABLE "artifacts" DROP CONSTRAINT "artifacts_pkey", ADD CONSTRAINT "artifacts_pkey" PRIMARY KEY ("workspace_id", "id");
ALTER TABLE "artifact_embeddings" DROP CONSTRAINT "artifact_embeddings_pkey", ADD CONSTRAINT "artifact_embeddings_pkey" PRIMARY KEY ("workspace_id", "id");
ALTER TABLE "idempotency_records" DROP CONSTRAINT "idempotency_records_pkey", ADD CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("workspace_id", "id");
ALTER TABLE "memories" DROP CONSTRAINT "memories_pkey", ADD CONSTRAINT "memories_pkey" PRIMARY KEY ("workspace_id", "id");
ALTER TABLE "directives" DROP CONSTRAINT "directives_pkey", ADD CONSTRAINT "directives_pkey" PRIMARY KEY ("workspace_id", "id");
ALTER TABLE "data_sources" DROP CONSTRAINT "data_sources_pkey", ADD CONSTRAINT "data_sources_pkey" PRIMARY KEY ("workspace_id", "id");
ALTER TABLE "query_patterns" DROP CONSTRAINT "query_patterns_pkey", ADD CONSTRAINT "query_patterns_pkey" PRIMARY KEY ("workspace_id", "id");
ALTER TABLE "error_learnings" DROP CONSTRAINT "error_learnings_pkey", ADD CONSTRAINT "error_learnings_pkey" PRIMARY KEY ("workspace_id", "id");
ALTER TABLE "skills" DROP CONSTRAINT "skills_pkey", ADD CONSTRAINT "skills_pkey" PRIMARY KEY ("workspace_id", "id");
ALTER TABLE "skill_files" DROP CONSTRAINT "skill_files_pkey", ADD CONSTRAINT "skill_files_pkey" PRIMARY KEY ("workspace_id", "id");

-- 3. Unique keys. A key's digest stays indexed but is no longer unique: authentication looks it up
-- before any workspace is known, and a unique key must carry workspace_id.
DROP INDEX "api_keys_hash_key";
CREATE INDEX "api_keys_hash_idx" ON "api_keys"("hash");
DROP INDEX "artifact_embeddings_artifact_id_facet_part_key";
CREATE UNIQUE INDEX "artifact_embeddings_workspace_id_artifact_id_facet_part_key" ON "artifact_embeddings"("workspace_id", "artifact_id", "facet", "part");
DROP INDEX "idempotency_records_api_key_id_idempotency_key_key";
CREATE UNIQUE INDEX "idempotency_records_workspace_id_api_key_id_idempotency_key_key" ON "idempotency_records"("workspace_id", "api_key_id", "idempotency_key");
DROP INDEX "memories_artifact_id_key";
CREATE UNIQUE INDEX "memories_workspace_id_artifact_id_key" ON "memories"("workspace_id", "artifact_id");
DROP INDEX "skill_files_skill_id_path_key";
CREATE UNIQUE INDEX "skill_files_workspace_id_skill_id_path_key" ON "skill_files"("workspace_id", "skill_id", "path");

-- 4. Indexes on workspace_id alone go: the primary keys begin with it. The ids of keys and
-- artifacts get an index of their own: the admin API names them without their workspace and looks
-- that up first.
DROP INDEX "api_keys_workspace_id_idx";
DROP INDEX "artifact_embeddings_workspace_id_idx";
DROP INDEX "skill_files_workspace_id_idx";
CREATE INDEX "api_keys_id_idx" ON "api_keys"("id");
CREATE INDEX "artifacts_id_idx" ON "artifacts"("id");

-- 5. Foreign keys from child to parent through both columns. Deleting a key clears only the
-- artifact's reference to it: a plain SET NULL would clear workspace_id too (PostgreSQL 15 and
-- later take the column list).
ALTER TABLE "artifacts" ADD CONSTRAINT "artifacts_workspace_id_created_by_key_id_fkey" FOREIGN KEY ("workspace_id", "created_by_key_id") REFERENCES "api_keys"("workspace_id", "id") ON DELETE SET NULL ("created_by_key_id") ON UPDATE CASCADE;
ALTER TABLE "artifact_embeddings" ADD CONSTRAINT "artifact_embeddings_workspace_id_artifact_id_fkey" FOREIGN KEY ("workspace_id", "artifact_id") REFERENCES "artifacts"("workspace_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "memories" ADD CONSTRAINT "memories_workspace_id_artifact_id_fkey" FOREIGN KEY ("workspace_id", "artifact_id") REFERENCES "artifacts"("workspace_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "query_patterns" ADD CONSTRAINT "query_patterns_workspace_id_data_source_id_fkey" FOREIGN KEY ("workspace_id", "data_source_id") REFERENCES "data_sources"("workspace_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "error_learnings" ADD CONSTRAINT "error_learnings_workspace_id_data_source_id_fkey" FOREIGN KEY ("workspace_id", "data_source_id") REFERENCES "data_sources"("workspace_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "skill_files" ADD CONSTRAINT "skill_files_workspace_id_skill_id_fkey" FOREIGN KEY ("workspace_id", "skill_id") REFERENCES "skills"("workspace_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;
