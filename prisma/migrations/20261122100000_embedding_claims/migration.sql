-- Index state per vector row: how often the provider refused its text, why (the last error), and
-- until when an indexer holds it. Rows refused 3 times are set aside as failed; a claim whose
-- lease ran out (a crashed worker) makes the row pending again.
ALTER TABLE "artifact_embeddings"
  ADD COLUMN "embed_attempts" INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN "embed_error" TEXT,
  ADD COLUMN "claimed_until" TIMESTAMPTZ(3);
ALTER TABLE "memories"
  ADD COLUMN "embed_attempts" INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN "embed_error" TEXT,
  ADD COLUMN "claimed_until" TIMESTAMPTZ(3);
ALTER TABLE "query_patterns"
  ADD COLUMN "embed_attempts" INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN "embed_error" TEXT,
  ADD COLUMN "claimed_until" TIMESTAMPTZ(3);
ALTER TABLE "error_learnings"
  ADD COLUMN "embed_attempts" INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN "embed_error" TEXT,
  ADD COLUMN "claimed_until" TIMESTAMPTZ(3);
