-- Word counts that reach zero are removed, so search_term_counts holds a workspace's live
-- vocabulary and no more: a lexeme whose last document goes (deleted, disputed, deactivated) loses
-- its row, and the collection's '' row goes with its last document. Readers already take a missing
-- row for 0 (hybrid-candidates.ts, vector-index.repository.ts).
--
-- The removal is a second statement of the same trigger, after the upsert, on the keys whose
-- count went down and only where the count is now 0. The upsert holds those rows locked until the
-- transaction ends, so no other transaction can raise a count between the two statements; one
-- that adds the same word waits on the lock and, once the row is gone, inserts it afresh (INSERT
-- … ON CONFLICT retries when the conflicting row was deleted). An insert never lowers a count and
-- skips the removal: pushes and validations write what they wrote before.
--
-- What is counted, and the shape Citus needs (arrays read from the transition tables before any
-- write), is unchanged from migration `distributable_schema`.
CREATE OR REPLACE FUNCTION search_term_counts_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  -- Named apart from the columns the INSERT below names.
  collection_of text := TG_ARGV[0];
  searchable_if text := TG_ARGV[1];
  removed text := format('SELECT r.workspace_id, %s, r.search_document, -1 FROM old_rows r WHERE %s', collection_of, searchable_if);
  added text := format('SELECT r.workspace_id, %s, r.search_document, 1 FROM new_rows r WHERE %s', collection_of, searchable_if);
  changes text := CASE TG_OP WHEN 'INSERT' THEN added WHEN 'DELETE' THEN removed ELSE removed || ' UNION ALL ' || added END;
  changed_workspaces text[];
  changed_collections text[];
  changed_documents tsvector[];
  changed_signs int[];
  of_workspace text;
BEGIN
  EXECUTE format('SELECT array_agg(d.workspace_id), array_agg(d.collection), array_agg(d.document), array_agg(d.sign)
                  FROM (%s) AS d(workspace_id, collection, document, sign)', changes)
    INTO changed_workspaces, changed_collections, changed_documents, changed_signs;
  -- A pushed draft is not searchable: most inserts have nothing to count.
  IF changed_workspaces IS NULL THEN RETURN NULL; END IF;
  INSERT INTO "search_term_counts" AS c ("workspace_id", "collection", "lexeme", "documents")
  SELECT d.workspace_id, d.collection, l.lexeme, sum(d.sign)::int
  FROM unnest(changed_workspaces, changed_collections, changed_documents, changed_signs) AS d(workspace_id, collection, document, sign)
  CROSS JOIN LATERAL unnest(array_prepend('', tsvector_to_array(d.document))) AS l(lexeme)
  GROUP BY 1, 2, 3 HAVING sum(d.sign) <> 0
  ORDER BY 1, 2, 3
  ON CONFLICT ("workspace_id", "collection", "lexeme") DO UPDATE SET "documents" = c."documents" + excluded."documents";
  IF TG_OP = 'INSERT' OR NOT (-1 = ANY (changed_signs)) THEN RETURN NULL; END IF;
  -- One statement per workspace, naming it: on Citus a statement on a shard may only run another
  -- that goes to one shard (here the colocated one, on the same node).
  FOREACH of_workspace IN ARRAY ARRAY(SELECT DISTINCT w FROM unnest(changed_workspaces) AS w(w) ORDER BY 1) LOOP
    EXECUTE format('DELETE FROM "search_term_counts" c
      WHERE c."workspace_id" = %L AND c."documents" = 0
        AND (c."collection", c."lexeme") IN (
          SELECT d.collection, l.lexeme
          FROM unnest($1, $2, $3, $4) AS d(workspace_id, collection, document, sign)
          CROSS JOIN LATERAL unnest(array_prepend(%L, tsvector_to_array(d.document))) AS l(lexeme)
          WHERE d.workspace_id = %L
          GROUP BY 1, 2 HAVING sum(d.sign) < 0)', of_workspace, '', of_workspace)
      USING changed_workspaces, changed_collections, changed_documents, changed_signs;
  END LOOP;
  RETURN NULL;
END
$$;

-- The rows already at 0. A count another transaction raises meanwhile is re-read under its row
-- lock before the delete, and kept.
DELETE FROM "search_term_counts" WHERE "documents" = 0;
