-- The schema as a distributed PostgreSQL (Citus) accepts it, with the same guarantees on one server
-- (docs/deployment.md §6). `npm run migrate` on a Citus coordinator then distributes the tables
-- (src/db/citus-distribution.ts); elsewhere nothing else changes.

-- 1. Foreign keys without ON UPDATE CASCADE. Citus refuses an action that would change the
-- distribution column through a foreign key; no id or workspace_id is ever updated, so the cascade
-- never ran. A key's deletion no longer clears its artifacts' reference to it (Citus refuses SET NULL
-- when the key holds the distribution column): keys are deleted only with their workspace, after
-- its artifacts (workspace-purge.repository.ts), and the reference is checked at the end of the
-- statement, so a workspace's deletion cascading to both still succeeds.
ALTER TABLE "api_keys" DROP CONSTRAINT "api_keys_workspace_id_fkey",
  ADD CONSTRAINT "api_keys_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE;
ALTER TABLE "artifact_embeddings" DROP CONSTRAINT "artifact_embeddings_workspace_id_artifact_id_fkey",
  ADD CONSTRAINT "artifact_embeddings_workspace_id_artifact_id_fkey" FOREIGN KEY ("workspace_id", "artifact_id") REFERENCES "artifacts"("workspace_id", "id") ON DELETE CASCADE;
ALTER TABLE "artifacts" DROP CONSTRAINT "artifacts_workspace_id_created_by_key_id_fkey",
  ADD CONSTRAINT "artifacts_workspace_id_created_by_key_id_fkey" FOREIGN KEY ("workspace_id", "created_by_key_id") REFERENCES "api_keys"("workspace_id", "id");
ALTER TABLE "artifacts" DROP CONSTRAINT "artifacts_workspace_id_fkey",
  ADD CONSTRAINT "artifacts_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE;
ALTER TABLE "connected_apps" DROP CONSTRAINT "connected_apps_reviewer_id_fkey",
  ADD CONSTRAINT "connected_apps_reviewer_id_fkey" FOREIGN KEY ("reviewer_id") REFERENCES "reviewers"("id") ON DELETE SET NULL;
ALTER TABLE "connected_apps" DROP CONSTRAINT "connected_apps_workspace_id_fkey",
  ADD CONSTRAINT "connected_apps_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE;
ALTER TABLE "data_sources" DROP CONSTRAINT "data_sources_workspace_id_fkey",
  ADD CONSTRAINT "data_sources_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE;
ALTER TABLE "directives" DROP CONSTRAINT "directives_workspace_id_fkey",
  ADD CONSTRAINT "directives_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE;
ALTER TABLE "error_learnings" DROP CONSTRAINT "error_learnings_workspace_id_data_source_id_fkey",
  ADD CONSTRAINT "error_learnings_workspace_id_data_source_id_fkey" FOREIGN KEY ("workspace_id", "data_source_id") REFERENCES "data_sources"("workspace_id", "id") ON DELETE CASCADE;
ALTER TABLE "idempotency_records" DROP CONSTRAINT "idempotency_records_workspace_id_fkey",
  ADD CONSTRAINT "idempotency_records_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE;
ALTER TABLE "memories" DROP CONSTRAINT "memories_workspace_id_artifact_id_fkey",
  ADD CONSTRAINT "memories_workspace_id_artifact_id_fkey" FOREIGN KEY ("workspace_id", "artifact_id") REFERENCES "artifacts"("workspace_id", "id") ON DELETE CASCADE;
ALTER TABLE "memories" DROP CONSTRAINT "memories_workspace_id_fkey",
  ADD CONSTRAINT "memories_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE;
ALTER TABLE "query_patterns" DROP CONSTRAINT "query_patterns_workspace_id_data_source_id_fkey",
  ADD CONSTRAINT "query_patterns_workspace_id_data_source_id_fkey" FOREIGN KEY ("workspace_id", "data_source_id") REFERENCES "data_sources"("workspace_id", "id") ON DELETE CASCADE;
ALTER TABLE "reviewer_sessions" DROP CONSTRAINT "reviewer_sessions_reviewer_id_fkey",
  ADD CONSTRAINT "reviewer_sessions_reviewer_id_fkey" FOREIGN KEY ("reviewer_id") REFERENCES "reviewers"("id") ON DELETE CASCADE;
ALTER TABLE "search_term_counts" DROP CONSTRAINT "search_term_counts_workspace_id_fkey",
  ADD CONSTRAINT "search_term_counts_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE;
ALTER TABLE "skill_files" DROP CONSTRAINT "skill_files_workspace_id_skill_id_fkey",
  ADD CONSTRAINT "skill_files_workspace_id_skill_id_fkey" FOREIGN KEY ("workspace_id", "skill_id") REFERENCES "skills"("workspace_id", "id") ON DELETE CASCADE;
ALTER TABLE "skills" DROP CONSTRAINT "skills_workspace_id_fkey",
  ADD CONSTRAINT "skills_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE;
ALTER TABLE "workspace_reviewers" DROP CONSTRAINT "workspace_reviewers_reviewer_id_fkey",
  ADD CONSTRAINT "workspace_reviewers_reviewer_id_fkey" FOREIGN KEY ("reviewer_id") REFERENCES "reviewers"("id") ON DELETE CASCADE;
ALTER TABLE "workspace_reviewers" DROP CONSTRAINT "workspace_reviewers_workspace_id_fkey",
  ADD CONSTRAINT "workspace_reviewers_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE;
ALTER TABLE "workspace_vector_indexes" DROP CONSTRAINT "workspace_vector_indexes_workspace_id_fkey",
  ADD CONSTRAINT "workspace_vector_indexes_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE;
ALTER TABLE "workspaces" DROP CONSTRAINT "workspaces_organization_id_fkey",
  ADD CONSTRAINT "workspaces_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE;

-- 2. The body chunks in PL/pgSQL: Citus cannot plan an SQL function's parameters in a statement a
-- trigger runs on a shard. What a chunk is stays artifact_body_chunks'.
CREATE OR REPLACE FUNCTION insert_artifact_body_chunks(of_workspace text, of_artifact text, validated boolean, body text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "artifact_embeddings" ("id", "artifact_id", "facet", "part", "workspace_id", "searchable", "text")
  SELECT of_artifact || ':body:' || chunk.part, of_artifact, 'body', chunk.part, of_workspace, validated, chunk.text
  FROM unnest(artifact_body_chunks(body)) WITH ORDINALITY AS chunk(text, part);
END
$$;

-- 3. The word counts read a statement's transition tables into arrays before they write: on Citus
-- the write is a statement on another distributed table, planned apart from the trigger's own
-- statement, which cannot see the transition tables. What is counted is unchanged (migration
-- `search_at_scale`): an update counts its rows out as they were and in as they are, rows whose
-- document and searchability did not change cancel out, and rows are locked in key order.
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
  RETURN NULL;
END
$$;
DROP FUNCTION search_term_counts_upsert(text);

-- 4. A search through a workspace's own index calls one of these functions inside a statement that
-- names the workspace, which Citus runs whole on the node that holds it; the function's own
-- statement names the workspace too and reads the colocated shard on that same node. Citus refuses
-- a statement on a distributed table from inside a statement on a shard unless told it may: the
-- shard read is local, in the caller's transaction. Elsewhere the setting is a name nobody reads.
ALTER FUNCTION nearest_in_workspace_index(text, text, text, halfvec, text, int, int, int)
  SET citus.allow_nested_distributed_execution = on;
ALTER FUNCTION nearest_matching_in_workspace_index(text, halfvec, text, int, int, int, timestamptz, timestamptz, timestamptz, timestamptz, text, float8)
  SET citus.allow_nested_distributed_execution = on;

-- 5. The functions the generated search documents call name the schema of the one they call:
-- pg_restore computes generated columns with an empty search_path, where the unqualified name was
-- not found and a logical dump did not restore (docs/deployment.md §7; on Citus, the way back from a
-- dump). What they compute is unchanged.
CREATE OR REPLACE FUNCTION search_field(doc text, weight "char") RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('english', coalesce(doc, '')) || to_tsvector('simple', public.search_identifier_text(doc)), weight)
$$;
CREATE OR REPLACE FUNCTION search_sql_field(doc text, weight "char") RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('simple', coalesce(doc, '')) || to_tsvector('simple', public.search_identifier_text(doc)), weight)
$$;
