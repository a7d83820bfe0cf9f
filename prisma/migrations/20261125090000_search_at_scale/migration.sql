-- Search whose cost follows what it returns, not what the table holds (docs/search.md, "At scale").

-- 1. Vectors in half precision, stored in the row. A 512-dimension `vector` is 2,056 bytes, just
-- over what PostgreSQL keeps in a row, so every vector lived in the TOAST table and an exact scan
-- paid two extra lookups per row; a `halfvec` is 1,032 bytes and stays inline (PLAIN), and its
-- index is half the size. Cosine distances move by at most 4e-5 (docs/search.md).
-- The shared HNSW indexes go: a filtered scan of one index shared by every workspace visits other
-- workspaces' vectors and, at `hnsw.max_scan_tuples`, returns fewer rows than asked for a small
-- workspace. Large workspaces get indexes of their own (4. below); the others are scanned exactly.
DROP FUNCTION "artifact_nearest_hnsw"(text, text, vector, int, int);
DROP INDEX "artifact_embeddings_embedding_hnsw_idx";
DROP INDEX "memories_embedding_hnsw_idx";
DROP INDEX "query_patterns_embedding_hnsw_idx";
DROP INDEX "error_learnings_embedding_hnsw_idx";
ALTER TABLE "artifact_embeddings" ALTER COLUMN "embedding" TYPE halfvec(512) USING "embedding"::halfvec(512), ALTER COLUMN "embedding" SET STORAGE PLAIN;
ALTER TABLE "memories" ALTER COLUMN "embedding" TYPE halfvec(512) USING "embedding"::halfvec(512), ALTER COLUMN "embedding" SET STORAGE PLAIN;
ALTER TABLE "query_patterns" ALTER COLUMN "embedding" TYPE halfvec(512) USING "embedding"::halfvec(512), ALTER COLUMN "embedding" SET STORAGE PLAIN;
ALTER TABLE "error_learnings" ALTER COLUMN "embedding" TYPE halfvec(512) USING "embedding"::halfvec(512), ALTER COLUMN "embedding" SET STORAGE PLAIN;

-- 2. Word statistics kept per collection as rows change, instead of counted on every search: how
-- many searchable documents a collection has (the row with the empty lexeme) and how many of them
-- hold each lexeme. A collection is what one search ranks against: a workspace's validated
-- artifacts, its active memories, one data source's patterns or error learnings.
CREATE TABLE "search_term_counts" (
    "workspace_id" TEXT NOT NULL,
    "collection" TEXT NOT NULL,
    "lexeme" TEXT NOT NULL,
    "documents" INTEGER NOT NULL,
    CONSTRAINT "search_term_counts_pkey" PRIMARY KEY ("workspace_id", "collection", "lexeme")
);
ALTER TABLE "search_term_counts" ADD CONSTRAINT "search_term_counts_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
-- The collections' sizes, read by the vector-index maintenance.
CREATE INDEX "search_term_counts_documents_idx" ON "search_term_counts"("documents") WHERE "lexeme" = '';

-- The statement that counts the lexemes of a batch of documents added (sign 1) or removed (-1)
-- into their collections; `changes` selects (workspace_id, collection, document, sign). Rows are
-- locked in key order, so two writers to one collection cannot deadlock. A statement text rather
-- than a function that runs it: a trigger's transition tables are visible to its own statements only.
CREATE FUNCTION search_term_counts_upsert(changes text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT format($sql$
    INSERT INTO "search_term_counts" AS c ("workspace_id", "collection", "lexeme", "documents")
    SELECT d.workspace_id, d.collection, l.lexeme, sum(d.sign)::int
    FROM (%s) AS d(workspace_id, collection, document, sign)
    CROSS JOIN LATERAL unnest(array_prepend('', tsvector_to_array(d.document))) AS l(lexeme)
    GROUP BY 1, 2, 3 HAVING sum(d.sign) <> 0
    ORDER BY 1, 2, 3
    ON CONFLICT ("workspace_id", "collection", "lexeme") DO UPDATE SET "documents" = c."documents" + excluded."documents"$sql$, changes)
$$;

-- One statement-level trigger function for every searched table: TG_ARGV[0] is the collection of
-- a row `r` as an SQL expression, TG_ARGV[1] the condition under which `r` is searchable. An
-- update counts its rows out as they were and in as they are; rows whose document and
-- searchability did not change cancel out (the indexer's vector writes among them).
CREATE FUNCTION search_term_counts_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  collection text := TG_ARGV[0];
  searchable text := TG_ARGV[1];
  removed text := format('SELECT r.workspace_id, %s, r.search_document, -1 FROM old_rows r WHERE %s', collection, searchable);
  added text := format('SELECT r.workspace_id, %s, r.search_document, 1 FROM new_rows r WHERE %s', collection, searchable);
  any_row boolean;
BEGIN
  IF TG_OP = 'INSERT' THEN
    -- A pushed draft is not searchable: most inserts have nothing to count.
    EXECUTE format('SELECT EXISTS (SELECT 1 FROM new_rows r WHERE %s)', searchable) INTO any_row;
    IF any_row THEN EXECUTE search_term_counts_upsert(added); END IF;
  ELSIF TG_OP = 'DELETE' THEN
    EXECUTE format('SELECT EXISTS (SELECT 1 FROM old_rows r WHERE %s)', searchable) INTO any_row;
    IF any_row THEN EXECUTE search_term_counts_upsert(removed); END IF;
  ELSE
    EXECUTE search_term_counts_upsert(removed || ' UNION ALL ' || added);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "artifacts_search_terms_inserted" AFTER INSERT ON "artifacts" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_term_counts_changed('''artifacts''', 'r.status = ''validated''');
CREATE TRIGGER "artifacts_search_terms_updated" AFTER UPDATE ON "artifacts" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_term_counts_changed('''artifacts''', 'r.status = ''validated''');
CREATE TRIGGER "artifacts_search_terms_deleted" AFTER DELETE ON "artifacts" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_term_counts_changed('''artifacts''', 'r.status = ''validated''');
CREATE TRIGGER "memories_search_terms_inserted" AFTER INSERT ON "memories" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_term_counts_changed('''memories''', 'r.active');
CREATE TRIGGER "memories_search_terms_updated" AFTER UPDATE ON "memories" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_term_counts_changed('''memories''', 'r.active');
CREATE TRIGGER "memories_search_terms_deleted" AFTER DELETE ON "memories" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_term_counts_changed('''memories''', 'r.active');
CREATE TRIGGER "query_patterns_search_terms_inserted" AFTER INSERT ON "query_patterns" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_term_counts_changed('''query_patterns:'' || r.data_source_id', 'true');
CREATE TRIGGER "query_patterns_search_terms_updated" AFTER UPDATE ON "query_patterns" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_term_counts_changed('''query_patterns:'' || r.data_source_id', 'true');
CREATE TRIGGER "query_patterns_search_terms_deleted" AFTER DELETE ON "query_patterns" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_term_counts_changed('''query_patterns:'' || r.data_source_id', 'true');
CREATE TRIGGER "error_learnings_search_terms_inserted" AFTER INSERT ON "error_learnings" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_term_counts_changed('''error_learnings:'' || r.data_source_id', 'true');
CREATE TRIGGER "error_learnings_search_terms_updated" AFTER UPDATE ON "error_learnings" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_term_counts_changed('''error_learnings:'' || r.data_source_id', 'true');
CREATE TRIGGER "error_learnings_search_terms_deleted" AFTER DELETE ON "error_learnings" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_term_counts_changed('''error_learnings:'' || r.data_source_id', 'true');

DO $do$ BEGIN EXECUTE search_term_counts_upsert($sql$
  SELECT workspace_id, 'artifacts', search_document, 1 FROM "artifacts" WHERE status = 'validated'
  UNION ALL SELECT workspace_id, 'memories', search_document, 1 FROM "memories" WHERE active
  UNION ALL SELECT workspace_id, 'query_patterns:' || data_source_id, search_document, 1 FROM "query_patterns"
  UNION ALL SELECT workspace_id, 'error_learnings:' || data_source_id, search_document, 1 FROM "error_learnings"$sql$); END $do$;

-- 3. Full-text keys that belong to one collection's owner: `<owner id> <lexeme>`. A GIN index on
-- the plain document returns a word's postings in every workspace before the workspace filter
-- applies, so a small workspace paid for the whole table; a key lookup reads only its own.
-- Only searchable rows are indexed. PL/pgSQL rather than SQL: the planner inlines an SQL function
-- in a query but not in an index definition, and then no longer sees that the two match. Its
-- cost stays the default: the planner adds it for every row a bitmap scan might recheck, and a
-- higher one pushed a large workspace's statement past `jit_above_cost` (265 ms of compiling).
CREATE FUNCTION search_keys(owner text, document tsvector) RETURNS text[]
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  RETURN array(SELECT owner || ' ' || lexeme FROM unnest(tsvector_to_array(document)) AS lexeme);
END
$$;
DROP INDEX "artifacts_search_document_idx";
DROP INDEX "memories_search_document_idx";
DROP INDEX "query_patterns_search_document_idx";
DROP INDEX "error_learnings_search_document_idx";
CREATE INDEX "artifacts_search_keys_idx" ON "artifacts" USING gin (search_keys("workspace_id", "search_document")) WHERE "status" = 'validated';
CREATE INDEX "memories_search_keys_idx" ON "memories" USING gin (search_keys("workspace_id", "search_document")) WHERE "active";
CREATE INDEX "query_patterns_search_keys_idx" ON "query_patterns" USING gin (search_keys("data_source_id", "search_document"));
CREATE INDEX "error_learnings_search_keys_idx" ON "error_learnings" USING gin (search_keys("data_source_id", "search_document"));

-- 4. IVFFlat indexes of one workspace each, made by the worker once a workspace's collection
-- passes a measured size (src/search/vector-index-maintenance.ts), listed here once they are
-- valid: the documents they were built from (a rebuild is due when the workspace has doubled) and
-- how many lists a search reads.
CREATE TABLE "workspace_vector_indexes" (
    "workspace_id" TEXT NOT NULL,
    "vector_table" TEXT NOT NULL,
    "index_name" TEXT NOT NULL,
    "documents" INTEGER NOT NULL,
    "probes" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "workspace_vector_indexes_pkey" PRIMARY KEY ("workspace_id", "vector_table")
);
ALTER TABLE "workspace_vector_indexes" ADD CONSTRAINT "workspace_vector_indexes_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The nearest rows of one workspace through its own index. The statement is planned with the
-- workspace id as a literal (EXECUTE), which is what lets the planner prove a partial index's
-- predicate; the settings hold while it runs and nowhere else:
-- - sequential scans off;
-- - `probes` lists read (the index's own figure, workspace_vector_indexes.probes);
-- - pgvector's iterative scan, which reads further lists until the other conditions (the model,
--   a memory's activity, a data source) have filled the limit.
-- `vector_table` names which of the four statements runs; `scope` is the data source of a
-- pattern or learning search. Answers (id, distance), an artifact by its nearest vector row.
CREATE FUNCTION nearest_in_workspace_index(vector_table text, search_workspace_id text, scope text, search_vector halfvec, search_model text, vector_rows int, items int, probes int)
RETURNS TABLE (id text, distance float8)
LANGUAGE plpgsql STABLE ROWS 50
SET enable_seqscan = off
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
