-- A search narrowed by filters (createdAfter, dataSource, minConfidence…; src/search/artifact-filters.ts)
-- through a workspace's own index of artifact vectors. The filters hold while the index is read,
-- not after: each vector row the index gives, nearest first, is kept only when its artifact
-- matches, and pgvector's iterative scan reads further lists until `vector_rows` matching rows are
-- found (or every list is read), so a filter never leaves fewer nearest artifacts than there are.
-- A selective filter makes that walk long (each row it passes over costs a look-up of its
-- artifact): the search reads a filter matching few artifacts by comparing their vectors exactly
-- instead (artifact-search.repository.ts, EXACT_MATCHING_MAX), and calls this one otherwise.
-- The settings are nearest_in_workspace_index's, for the same reasons (migrations `search_at_scale`,
-- `own_index_always_read`); with sorts off, the only plan left without a sort below the limit is
-- the index's order, each row joined to its artifact by its key. The conditions are those of
-- artifactFilterCondition, null where not given; a test compares the two.
CREATE FUNCTION nearest_matching_in_workspace_index(search_workspace_id text, search_vector halfvec, search_model text, vector_rows int, items int, probes int,
                                                    created_after timestamptz, created_before timestamptz, validated_after timestamptz,
                                                    validated_before timestamptz, data_source text, min_confidence float8)
RETURNS TABLE (id text, distance float8)
LANGUAGE plpgsql STABLE ROWS 50
SET enable_seqscan = off
SET enable_sort = off
SET jit = off
SET ivfflat.iterative_scan = relaxed_order
-- Listed so that the set_config below ends with the function.
SET ivfflat.probes = 1
AS $$
BEGIN
  PERFORM set_config('ivfflat.probes', probes::text, true);
  RETURN QUERY EXECUTE format($sql$
    SELECT nearest.artifact_id, min(nearest.distance) FROM (
      SELECT e.artifact_id, (e.embedding <=> $1)::float8 AS distance FROM "artifact_embeddings" e
      JOIN "artifacts" a ON a.workspace_id = e.workspace_id AND a.id = e.artifact_id
      WHERE e.workspace_id = %L AND e.searchable AND e.model = $2 AND a.status = 'validated'
        AND ($5::timestamptz IS NULL OR a.created_at >= $5) AND ($6::timestamptz IS NULL OR a.created_at <= $6)
        AND ($7::timestamptz IS NULL OR a.validated_at >= $7) AND ($8::timestamptz IS NULL OR a.validated_at <= $8)
        AND ($9::text IS NULL OR a.data_sources @> jsonb_build_array(jsonb_build_object('name', $9::text)))
        AND ($10::float8 IS NULL OR a.confidence >= $10)
      ORDER BY e.embedding <=> $1 LIMIT $3) AS nearest
    GROUP BY nearest.artifact_id ORDER BY min(nearest.distance), nearest.artifact_id LIMIT $4$sql$, search_workspace_id)
  USING search_vector, search_model, vector_rows, items, created_after, created_before, validated_after, validated_before, data_source, min_confidence;
END
$$;
