-- nearest_in_workspace_index (migration `search_at_scale`) reads the workspace's own index: the
-- caller chose it because the workspace has one. Left to the planner, a workspace just past the
-- size where it gets one (10,000 vectors, 40 lists of which a search reads 30) was read through
-- its workspace btree and sorted instead, an exact scan by another name. Sorting is turned off
-- for the statement, as sequential scans already were: the only plan left without one is the
-- index's own order. The outer GROUP BY of the artifacts' statement still sorts its few hundred
-- rows (a disabled step is avoided where there is another way, not forbidden).
CREATE OR REPLACE FUNCTION nearest_in_workspace_index(vector_table text, search_workspace_id text, scope text, search_vector halfvec, search_model text, vector_rows int, items int, probes int)
RETURNS TABLE (id text, distance float8)
LANGUAGE plpgsql STABLE ROWS 50
SET enable_seqscan = off
SET enable_sort = off
-- The plan then carries the cost PostgreSQL gives a disabled step, which would otherwise set off
-- JIT compiling (about 60 ms, for a statement of a few).
SET jit = off
SET ivfflat.iterative_scan = relaxed_order
-- Listed so that the set_config below ends with the function.
SET ivfflat.probes = 1
AS $$
BEGIN
  PERFORM set_config('ivfflat.probes', probes::text, true);
  IF vector_table = 'artifact_embeddings' THEN
    RETURN QUERY EXECUTE format($sql$
      SELECT nearest.artifact_id, min(nearest.distance) FROM (
        SELECT e.artifact_id, (e.embedding <=> $1)::float8 AS distance FROM "artifact_embeddings" e
        WHERE e.workspace_id = %L AND e.searchable AND e.model = $2
        ORDER BY e.embedding <=> $1 LIMIT $3) AS nearest
      GROUP BY nearest.artifact_id ORDER BY min(nearest.distance), nearest.artifact_id LIMIT $4$sql$, search_workspace_id)
    USING search_vector, search_model, vector_rows, items;
  ELSIF vector_table = 'memories' THEN
    RETURN QUERY EXECUTE format($sql$
      SELECT t.id, (t.embedding <=> $1)::float8 FROM "memories" t
      WHERE t.workspace_id = %L AND t.active AND t.embedding_model = $2
      ORDER BY t.embedding <=> $1 LIMIT $3$sql$, search_workspace_id)
    USING search_vector, search_model, items;
  ELSIF vector_table IN ('query_patterns', 'error_learnings') THEN
    RETURN QUERY EXECUTE format($sql$
      SELECT t.id, (t.embedding <=> $1)::float8 FROM %I t
      WHERE t.workspace_id = %L AND t.data_source_id = $3 AND t.embedding_model = $2
      ORDER BY t.embedding <=> $1 LIMIT $4$sql$, vector_table, search_workspace_id)
    USING search_vector, search_model, scope, items;
  ELSE
    RAISE EXCEPTION 'nearest_in_workspace_index: unknown vector table %', vector_table;
  END IF;
END
$$;
