-- Initial schema of the Workspace Intelligence API.
-- Written to match what `prisma migrate diff` emits for prisma/schema.prisma, plus what Prisma's
-- schema language cannot express: HNSW vector indexes and full-text search columns. A generated
-- diff proposes to drop those; keep them.

CREATE EXTENSION IF NOT EXISTS "vector";

CREATE TYPE "artifact_status" AS ENUM ('draft', 'validated', 'disputed');
CREATE TYPE "artifact_trigger" AS ENUM ('external', 'chat');
CREATE TYPE "memory_type" AS ENUM ('preference', 'rule', 'correction', 'definition', 'finding', 'context');
CREATE TYPE "connector_type" AS ENUM ('postgres', 'mysql', 'sqlserver', 'clickhouse', 'databricks');
CREATE TYPE "data_source_status" AS ENUM ('connected', 'error', 'disconnected');
CREATE TYPE "skill_source" AS ENUM ('uploaded', 'authored');
CREATE TYPE "skill_file_kind" AS ENUM ('markdown', 'script', 'text', 'binary');
CREATE TYPE "artifact_facet" AS ENUM ('headline', 'body');

CREATE TABLE "organizations" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "organizations_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "workspaces" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "context" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "workspaces_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "api_keys" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "start" TEXT NOT NULL,
    "scopes" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "artifacts" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "status" "artifact_status" NOT NULL DEFAULT 'draft',
    "trigger" "artifact_trigger" NOT NULL,
    "summary" TEXT NOT NULL,
    "why" TEXT NOT NULL,
    "confidence" DOUBLE PRECISION NOT NULL,
    "confidence_explanation" TEXT NOT NULL,
    "content" JSON,
    "recommendation" TEXT,
    "key_findings" JSONB,
    "recommendations" JSONB,
    "source_system" TEXT,
    "data_sources" JSONB,
    "code_executed" JSONB,
    "created_by_key_id" TEXT,
    "created_by" TEXT NOT NULL,
    "validated_at" TIMESTAMPTZ(3),
    "validated_by" TEXT,
    "disputed_at" TIMESTAMPTZ(3),
    "disputed_by" TEXT,
    "dispute_reason" TEXT,
    "previous_artifact_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "artifacts_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "artifact_embeddings" (
    "id" TEXT NOT NULL,
    "artifact_id" TEXT NOT NULL,
    "facet" "artifact_facet" NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "searchable" BOOLEAN NOT NULL DEFAULT false,
    "model" TEXT,
    "embedding" vector(512),
    CONSTRAINT "artifact_embeddings_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "idempotency_records" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "api_key_id" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "response_status" INTEGER NOT NULL,
    "response_body" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "memories" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "type" "memory_type" NOT NULL,
    "statement" TEXT NOT NULL,
    "going_forward" TEXT,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "artifact_id" TEXT,
    "embedding_model" TEXT,
    "embedding" vector(512),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "memories_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "directives" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "directives_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "data_sources" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "connector_type" "connector_type" NOT NULL,
    "status" "data_source_status" NOT NULL,
    "schema" JSONB,
    "table_annotations" JSONB,
    "connection_ref" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "data_sources_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "query_patterns" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "data_source_id" TEXT NOT NULL,
    "question" TEXT NOT NULL,
    "sql" TEXT NOT NULL,
    "result_summary" TEXT,
    "success_count" INTEGER NOT NULL DEFAULT 0,
    "last_used_at" TIMESTAMPTZ(3),
    "embedding_model" TEXT,
    "embedding" vector(512),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "query_patterns_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "error_learnings" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "data_source_id" TEXT NOT NULL,
    "failed_sql" TEXT NOT NULL,
    "error_message" TEXT NOT NULL,
    "learning" TEXT NOT NULL,
    "embedding_model" TEXT,
    "embedding" vector(512),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "error_learnings_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "skills" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "source" "skill_source" NOT NULL,
    "official" BOOLEAN NOT NULL DEFAULT false,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "allowed_tools" TEXT[],
    "compatibility" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "skills_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "skill_files" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "skill_id" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "kind" "skill_file_kind" NOT NULL,
    "size" INTEGER NOT NULL,
    "content_type" TEXT NOT NULL,
    "storage_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "skill_files_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "stored_blobs" (
    "key" TEXT NOT NULL,
    "data" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "stored_blobs_pkey" PRIMARY KEY ("key")
);

CREATE INDEX "workspaces_organization_id_idx" ON "workspaces"("organization_id");
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys"("hash");
CREATE INDEX "api_keys_workspace_id_idx" ON "api_keys"("workspace_id");
CREATE INDEX "artifacts_workspace_id_status_created_at_id_idx" ON "artifacts"("workspace_id", "status", "created_at" DESC, "id" DESC);
CREATE INDEX "artifacts_workspace_id_trigger_created_at_id_idx" ON "artifacts"("workspace_id", "trigger", "created_at" DESC, "id" DESC);
CREATE INDEX "artifacts_created_by_key_id_created_at_id_idx" ON "artifacts"("created_by_key_id", "created_at" DESC, "id" DESC);
CREATE UNIQUE INDEX "artifact_embeddings_artifact_id_facet_key" ON "artifact_embeddings"("artifact_id", "facet");
CREATE INDEX "artifact_embeddings_workspace_id_idx" ON "artifact_embeddings"("workspace_id");
CREATE UNIQUE INDEX "idempotency_records_api_key_id_idempotency_key_key" ON "idempotency_records"("api_key_id", "idempotency_key");
CREATE INDEX "idempotency_records_created_at_idx" ON "idempotency_records"("created_at");
CREATE UNIQUE INDEX "memories_artifact_id_key" ON "memories"("artifact_id");
CREATE INDEX "memories_workspace_id_active_type_created_at_idx" ON "memories"("workspace_id", "active", "type", "created_at" DESC);
CREATE UNIQUE INDEX "directives_workspace_id_name_key" ON "directives"("workspace_id", "name");
CREATE UNIQUE INDEX "data_sources_workspace_id_name_key" ON "data_sources"("workspace_id", "name");
CREATE INDEX "query_patterns_workspace_id_data_source_id_idx" ON "query_patterns"("workspace_id", "data_source_id");
CREATE INDEX "error_learnings_workspace_id_data_source_id_idx" ON "error_learnings"("workspace_id", "data_source_id");
CREATE UNIQUE INDEX "skills_workspace_id_name_key" ON "skills"("workspace_id", "name");
CREATE UNIQUE INDEX "skill_files_skill_id_path_key" ON "skill_files"("skill_id", "path");
CREATE INDEX "skill_files_workspace_id_idx" ON "skill_files"("workspace_id");

ALTER TABLE "workspaces" ADD CONSTRAINT "workspaces_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "artifacts" ADD CONSTRAINT "artifacts_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "artifacts" ADD CONSTRAINT "artifacts_created_by_key_id_fkey" FOREIGN KEY ("created_by_key_id") REFERENCES "api_keys"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "artifact_embeddings" ADD CONSTRAINT "artifact_embeddings_artifact_id_fkey" FOREIGN KEY ("artifact_id") REFERENCES "artifacts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "idempotency_records" ADD CONSTRAINT "idempotency_records_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "memories" ADD CONSTRAINT "memories_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "memories" ADD CONSTRAINT "memories_artifact_id_fkey" FOREIGN KEY ("artifact_id") REFERENCES "artifacts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "directives" ADD CONSTRAINT "directives_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "data_sources" ADD CONSTRAINT "data_sources_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "query_patterns" ADD CONSTRAINT "query_patterns_data_source_id_fkey" FOREIGN KEY ("data_source_id") REFERENCES "data_sources"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "error_learnings" ADD CONSTRAINT "error_learnings_data_source_id_fkey" FOREIGN KEY ("data_source_id") REFERENCES "data_sources"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "skills" ADD CONSTRAINT "skills_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "skill_files" ADD CONSTRAINT "skill_files_skill_id_fkey" FOREIGN KEY ("skill_id") REFERENCES "skills"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written: nearest-neighbour indexes (cosine distance, the `<=>` operator).
CREATE INDEX "artifact_embeddings_embedding_hnsw_idx" ON "artifact_embeddings" USING hnsw ("embedding" vector_cosine_ops);
CREATE INDEX "memories_embedding_hnsw_idx" ON "memories" USING hnsw ("embedding" vector_cosine_ops);
CREATE INDEX "query_patterns_embedding_hnsw_idx" ON "query_patterns" USING hnsw ("embedding" vector_cosine_ops);
CREATE INDEX "error_learnings_embedding_hnsw_idx" ON "error_learnings" USING hnsw ("embedding" vector_cosine_ops);

-- Hand-written: full-text search, so exact terms (a table or metric name) are found where
-- embeddings are weak. Generated columns keep the document in step with the row.
ALTER TABLE "artifacts" ADD COLUMN "search_document" tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', "summary"), 'A') ||
    setweight(jsonb_to_tsvector('english', coalesce("key_findings", '[]'::jsonb), '["string"]'), 'B') ||
    setweight(to_tsvector('english', "why" || ' ' || coalesce("recommendation", '')), 'C') ||
    setweight(jsonb_to_tsvector('english', coalesce("data_sources", '[]'::jsonb), '["string"]'), 'D')
) STORED;
CREATE INDEX "artifacts_search_document_idx" ON "artifacts" USING gin ("search_document");

ALTER TABLE "memories" ADD COLUMN "search_document" tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', "statement"), 'A') ||
    setweight(to_tsvector('english', coalesce("going_forward", '')), 'B')
) STORED;
CREATE INDEX "memories_search_document_idx" ON "memories" USING gin ("search_document");

ALTER TABLE "query_patterns" ADD COLUMN "search_document" tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', "question"), 'A') ||
    setweight(to_tsvector('simple', "sql"), 'B') ||
    setweight(to_tsvector('english', coalesce("result_summary", '')), 'C')
) STORED;
CREATE INDEX "query_patterns_search_document_idx" ON "query_patterns" USING gin ("search_document");

ALTER TABLE "error_learnings" ADD COLUMN "search_document" tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', "learning"), 'A') ||
    setweight(to_tsvector('english', "error_message"), 'B') ||
    setweight(to_tsvector('simple', "failed_sql"), 'C')
) STORED;
CREATE INDEX "error_learnings_search_document_idx" ON "error_learnings" USING gin ("search_document");
