-- The nearest artifacts of one workspace through the HNSW index, each by its nearest vector row.
-- Left to itself the planner picks a btree scan with an exact sort even at tens of thousands of
-- vectors, or the index without iterative scan, which returns fewer rows than asked once the
-- workspace filter drops some. The settings this path needs are the function's own SET clauses:
-- they hold while it runs (its statement's planning included) and nowhere else, so a search sends
-- this as part of one statement instead of a transaction of four round trips.
-- - `(workspace_id = …) IS TRUE` is a condition the btree cannot serve;
-- - ROWS: the planner of the calling statement counts on the 50 rows a search asks for, not on the
--   default 1,000 (which made it hash the whole workspace and pass the JIT threshold: 48 ms
--   instead of 5);
-- - sequential scans off; pgvector 0.8's iterative scan, which keeps walking the graph until the
--   workspace filter has filled the limit; a candidate list at least as long as the rows asked
--   for (the default, 40, is not).
CREATE FUNCTION artifact_nearest_hnsw(search_workspace_id text, search_model text, search_vector vector, vector_rows int, artifacts int)
RETURNS TABLE (id text, distance float8)
LANGUAGE sql STABLE ROWS 50
SET enable_seqscan = off
SET hnsw.iterative_scan = relaxed_order
SET hnsw.ef_search = 200
AS $$
  SELECT nearest.artifact_id, min(nearest.distance) FROM (
    SELECT e.artifact_id, e.embedding <=> search_vector AS distance FROM artifact_embeddings e
    WHERE (e.workspace_id = search_workspace_id) IS TRUE AND e.searchable AND e.model = search_model AND e.embedding IS NOT NULL
    ORDER BY e.embedding <=> search_vector LIMIT vector_rows) AS nearest
  GROUP BY nearest.artifact_id ORDER BY min(nearest.distance), nearest.artifact_id LIMIT artifacts
$$;
