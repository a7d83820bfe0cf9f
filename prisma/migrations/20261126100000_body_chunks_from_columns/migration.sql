-- The trigger that writes an artifact's body chunks passes the artifact's columns, not its row.
-- On a table partitioned by workspace (docs/deployment.md §6) a row trigger runs on the partition,
-- whose rows are of the partition's own type, which a function of the `artifacts` row type does
-- not take; and such a function would go with the table when it is dropped to be made again
-- partitioned. What the chunks are is unchanged.
CREATE FUNCTION insert_artifact_body_chunks(of_workspace text, of_artifact text, validated boolean, body text) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO "artifact_embeddings" ("id", "artifact_id", "facet", "part", "workspace_id", "searchable", "text")
  SELECT of_artifact || ':body:' || chunk.part, of_artifact, 'body', chunk.part, of_workspace, validated, chunk.text
  FROM unnest(artifact_body_chunks(body)) WITH ORDINALITY AS chunk(text, part)
$$;

CREATE OR REPLACE FUNCTION artifacts_insert_body_chunks() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM insert_artifact_body_chunks(NEW.workspace_id, NEW.id, NEW.status = 'validated', NEW.body_text);
  RETURN NULL;
END
$$;

DROP FUNCTION insert_artifact_body_chunks(artifacts);
