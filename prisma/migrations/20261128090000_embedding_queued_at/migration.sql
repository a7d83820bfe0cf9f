-- When a row joined the embedding backlog, for the backlog's age (docs/operations.md): its
-- created_at is the time of what it records, which an import sets in the past (an artifact
-- validated last year is queued today), so the oldest pending row's created_at made a fresh
-- import look a year behind. A constant default: existing rows take the migration's time without
-- a table rewrite.
ALTER TABLE "artifact_embeddings" ADD COLUMN "queued_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now();
ALTER TABLE "memories" ADD COLUMN "queued_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now();
ALTER TABLE "query_patterns" ADD COLUMN "queued_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now();
ALTER TABLE "error_learnings" ADD COLUMN "queued_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now();
