-- Search documents that match identifiers whole and in parts, and artifact bodies.
--
-- The english parser splits `fct_orders` into fct + order (the whole is lost), keeps `DAU/MAU`
-- and `Europe/Lisbon` only whole (the parts are lost), and reads `CB-1120` as cb + the negative
-- number -1120. search_identifier_text() spells every identifier (letters and digits joined by
-- _ / . -, with at least one letter) once joined (fctorders, daumau, cb1120) and once in its parts
-- (fct, orders, dau, mau, cb, 1120); the same function runs on the query, so both sides agree.
CREATE FUNCTION search_identifier_text(doc text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(string_agg(token, ' '), '')
  FROM (
    SELECT m[1] AS identifier FROM regexp_matches(lower(coalesce(doc, '')), '([a-z0-9]+(?:[_/.-][a-z0-9]+)+)', 'g') AS m
  ) found
  CROSS JOIN LATERAL (
    SELECT regexp_replace(identifier, '[_/.-]', '', 'g') AS token
    UNION ALL
    SELECT part FROM regexp_split_to_table(identifier, '[_/.-]') AS part WHERE length(part) > 1
  ) tokens
  WHERE identifier ~ '[a-z]'
$$;

-- English words plus identifier tokens of one field, at one weight.
CREATE FUNCTION search_field(doc text, weight "char") RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('english', coalesce(doc, '')) || to_tsvector('simple', search_identifier_text(doc)), weight)
$$;

-- SQL text: every token as written (no stemming), plus identifier tokens.
CREATE FUNCTION search_sql_field(doc text, weight "char") RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('simple', coalesce(doc, '')) || to_tsvector('simple', search_identifier_text(doc)), weight)
$$;

-- The readable text of an artifact's body (Markdown, or the prose inside an element tree; not image
-- addresses), written by the application on insert. Backfilled here for existing rows.
ALTER TABLE "artifacts" ADD COLUMN "body_text" TEXT;
UPDATE "artifacts" SET "body_text" = CASE json_typeof("content")
    WHEN 'string' THEN "content" #>> '{}'
    WHEN 'object' THEN (
      SELECT string_agg(value #>> '{}', E'\n\n')
      FROM (SELECT jsonb_path_query("content"::jsonb, '$.elements.*.props.content') AS value
            UNION ALL SELECT jsonb_path_query("content"::jsonb, '$.elements.*.props.text')
            UNION ALL SELECT jsonb_path_query("content"::jsonb, '$.elements.*.props.caption')) AS prose
      WHERE jsonb_typeof(value) = 'string')
  END
WHERE "content" IS NOT NULL;

DROP INDEX "artifacts_search_document_idx";
ALTER TABLE "artifacts" DROP COLUMN "search_document";
ALTER TABLE "artifacts" ADD COLUMN "search_document" tsvector GENERATED ALWAYS AS (
    search_field("summary", 'A') ||
    search_field(coalesce("key_findings", '[]'::jsonb)::text, 'B') ||
    search_field("why" || ' ' || coalesce("recommendation", ''), 'C') ||
    setweight(jsonb_to_tsvector('english', coalesce("data_sources", '[]'::jsonb), '["string"]'), 'D') ||
    setweight(to_tsvector('simple', search_identifier_text(coalesce("data_sources", '[]'::jsonb)::text)), 'D') ||
    search_field("body_text", 'D')
) STORED;
CREATE INDEX "artifacts_search_document_idx" ON "artifacts" USING gin ("search_document");

DROP INDEX "memories_search_document_idx";
ALTER TABLE "memories" DROP COLUMN "search_document";
ALTER TABLE "memories" ADD COLUMN "search_document" tsvector GENERATED ALWAYS AS (
    search_field("statement", 'A') ||
    search_field("going_forward", 'B')
) STORED;
CREATE INDEX "memories_search_document_idx" ON "memories" USING gin ("search_document");

DROP INDEX "query_patterns_search_document_idx";
ALTER TABLE "query_patterns" DROP COLUMN "search_document";
ALTER TABLE "query_patterns" ADD COLUMN "search_document" tsvector GENERATED ALWAYS AS (
    search_field("question", 'A') ||
    search_sql_field("sql", 'B') ||
    search_field("result_summary", 'C')
) STORED;
CREATE INDEX "query_patterns_search_document_idx" ON "query_patterns" USING gin ("search_document");

DROP INDEX "error_learnings_search_document_idx";
ALTER TABLE "error_learnings" DROP COLUMN "search_document";
ALTER TABLE "error_learnings" ADD COLUMN "search_document" tsvector GENERATED ALWAYS AS (
    search_field("learning", 'A') ||
    search_field("error_message", 'B') ||
    search_sql_field("failed_sql", 'C')
) STORED;
CREATE INDEX "error_learnings_search_document_idx" ON "error_learnings" USING gin ("search_document");
