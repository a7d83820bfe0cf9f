-- An artifact's body is embedded too, in chunks: a query that paraphrases one passage of a long
-- body lands nearer that passage's vector than the vector of the whole artifact. Chunks are rows of
-- the body facet numbered from 1 (part 0 is the summary, why and recommendation), holding their
-- text; their vectors are made by the same background indexer, after every artifact's headline.

-- The body's readable text (artifacts.body_text) in chunks of at most 300 characters, at most 4:
-- lines are packed together up to the size; a longer line is cut after its last sentence end (or
-- else its last space) within the size. 300 characters cost the local model ≈ 30 ms each
-- (docs/performance.md); the cap bounds what one artifact adds to the index backlog.
CREATE FUNCTION artifact_body_chunks(body text) RETURNS text[]
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  max_chars CONSTANT int := 300;
  max_chunks CONSTANT int := 4;
  chunks text[] := '{}';
  current text := '';
  line text;
  cut int;
BEGIN
  FOR line IN SELECT btrim(l, E' \t\r') FROM regexp_split_to_table(coalesce(body, ''), E'\n') AS l LOOP
    CONTINUE WHEN line = '';
    WHILE line <> '' LOOP
      IF length(line) > max_chars THEN
        cut := max_chars - position(' .' IN reverse(left(line, max_chars)));
        IF cut = max_chars THEN cut := max_chars + 1 - position(' ' IN reverse(left(line, max_chars))); END IF;
        IF cut > max_chars OR cut < max_chars / 3 THEN cut := max_chars; END IF;
      ELSE
        cut := length(line);
      END IF;
      IF current <> '' AND length(current) + 1 + cut > max_chars THEN
        chunks := chunks || current;
        current := '';
      END IF;
      EXIT WHEN cardinality(chunks) >= max_chunks;
      current := CASE WHEN current = '' THEN btrim(left(line, cut)) ELSE current || E'\n' || btrim(left(line, cut)) END;
      line := btrim(substr(line, cut + 1));
    END LOOP;
    EXIT WHEN cardinality(chunks) >= max_chunks;
  END LOOP;
  IF current <> '' AND cardinality(chunks) < max_chunks THEN chunks := chunks || current; END IF;
  RETURN chunks;
END
$$;

ALTER TABLE "artifact_embeddings"
  ADD COLUMN "part" INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN "text" TEXT;
DROP INDEX "artifact_embeddings_artifact_id_facet_key";
CREATE UNIQUE INDEX "artifact_embeddings_artifact_id_facet_part_key" ON "artifact_embeddings"("artifact_id", "facet", "part");

-- The chunk rows of one artifact, pending. The insert trigger and the backfill below are the only
-- writers, so that one definition decides what a chunk is.
CREATE FUNCTION insert_artifact_body_chunks(artifact artifacts) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO "artifact_embeddings" ("id", "artifact_id", "facet", "part", "workspace_id", "searchable", "text")
  SELECT artifact.id || ':body:' || chunk.part, artifact.id, 'body', chunk.part, artifact.workspace_id,
         artifact.status = 'validated', chunk.text
  FROM unnest(artifact_body_chunks(artifact.body_text)) WITH ORDINALITY AS chunk(text, part)
$$;

CREATE FUNCTION artifacts_insert_body_chunks() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM insert_artifact_body_chunks(NEW);
  RETURN NULL;
END
$$;

CREATE TRIGGER "artifacts_body_chunks" AFTER INSERT ON "artifacts"
  FOR EACH ROW WHEN (NEW.body_text IS NOT NULL) EXECUTE FUNCTION artifacts_insert_body_chunks();

SELECT insert_artifact_body_chunks(a) FROM "artifacts" a WHERE a.body_text IS NOT NULL;
