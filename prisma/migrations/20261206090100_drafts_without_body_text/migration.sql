-- Drafts pushed before `body_chunks_when_validated` hold the body text and chunks they now get at
-- their validation, which writes them again: both are cleared, so that an artifact is indexed the
-- same way whenever it was pushed. Nothing searchable changes (the word counts count only
-- validated artifacts).
DELETE FROM "artifact_embeddings" e USING "artifacts" a
WHERE e."workspace_id" = a."workspace_id" AND e."artifact_id" = a."id"
  AND a."status" <> 'validated' AND e."facet" = 'body' AND e."part" > 0;
UPDATE "artifacts" SET "body_text" = NULL WHERE "status" <> 'validated' AND "body_text" IS NOT NULL;
