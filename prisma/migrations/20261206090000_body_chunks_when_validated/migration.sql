-- A draft's body is not searchable text until a review validates it: body_text, which the lexical
-- search document and the body chunks are made from, is written with the validation (or with an
-- import of validated artifacts), no longer with every push. Tokenising a few KB of body and
-- chunking it took a third of a push's statement on the embedded engine, for a draft no search can
-- find (docs/performance.md, "What each change bought"). A draft's headline and body part 0 are
-- still embedded as soon as it is pushed; its chunks wait for the indexer after the validation.
--
-- Chunks are made when body_text is first written: at an insert (migration `artifact_body_chunks`)
-- or at the validation that writes it. The only statement of its migration: Citus hands a trigger's
-- creation to the workers as the whole text of the statement it came in, which must be one command.
CREATE TRIGGER "artifacts_body_chunks_when_validated" AFTER UPDATE OF "body_text" ON "artifacts"
  FOR EACH ROW WHEN (OLD.body_text IS NULL AND NEW.body_text IS NOT NULL) EXECUTE FUNCTION artifacts_insert_body_chunks();
