-- The full-text keys' GIN indexes (migration `search_at_scale`) take new entries straight into
-- their trees. With fast update, PostgreSQL's default, new entries wait in a pending list that
-- every search reads whole until vacuum merges it: up to 4 MB per index between two autovacuums
-- of a busy table, and on the embedded engine, which never autovacuums, the whole index (a
-- 1,000-artifact import left all 334 pages of the artifacts' keys pending, and a search's
-- full-text statement took 50 ms instead of 27). A write pays for its own entries instead.
ALTER INDEX "artifacts_search_keys_idx" SET (fastupdate = off);
ALTER INDEX "memories_search_keys_idx" SET (fastupdate = off);
ALTER INDEX "query_patterns_search_keys_idx" SET (fastupdate = off);
ALTER INDEX "error_learnings_search_keys_idx" SET (fastupdate = off);

-- Entries already pending are merged now; the list stays empty from here on.
SELECT gin_clean_pending_list('"artifacts_search_keys_idx"'::regclass);
SELECT gin_clean_pending_list('"memories_search_keys_idx"'::regclass);
SELECT gin_clean_pending_list('"query_patterns_search_keys_idx"'::regclass);
SELECT gin_clean_pending_list('"error_learnings_search_keys_idx"'::regclass);
