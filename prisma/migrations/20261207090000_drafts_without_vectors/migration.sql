-- A draft's vector rows and memory-bank entry are written at its validation, as its body's text
-- and chunks already are (`body_chunks_when_validated`): no search finds a draft, so the model no
-- longer embeds what was pushed until a review validates it, and a disputed draft is never
-- embedded. The rows that drafts and disputed artifacts pushed before this migration hold are
-- removed, so that an artifact is indexed the same way whenever it was pushed; their validation
-- writes them again. Nothing searchable changes: those vectors were unsearchable and those memories
-- inactive.
DELETE FROM "artifact_embeddings" e USING "artifacts" a
WHERE e."workspace_id" = a."workspace_id" AND e."artifact_id" = a."id" AND a."status" <> 'validated';
DELETE FROM "memories" m USING "artifacts" a
WHERE m."workspace_id" = a."workspace_id" AND m."artifact_id" = a."id" AND a."status" <> 'validated';
