-- Hit counters of the rate limits, shared by every process on one database (fixed windows).
-- UNLOGGED: a counter lost in a crash only forgives one window, and writes skip the WAL.
CREATE UNLOGGED TABLE "rate_limit_counters" (
    "key" TEXT NOT NULL,
    "hits" INTEGER NOT NULL,
    "reset_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "rate_limit_counters_pkey" PRIMARY KEY ("key")
);

-- Housekeeping deletes the counters of past windows.
CREATE INDEX "rate_limit_counters_reset_at_idx" ON "rate_limit_counters"("reset_at");

-- Housekeeping looks for blobs no skill file points at.
CREATE INDEX "skill_files_storage_key_idx" ON "skill_files"("storage_key");
