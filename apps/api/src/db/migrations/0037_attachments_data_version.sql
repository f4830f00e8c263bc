-- A ticket's answer lists its comments' files, so a change to attachments changes the organization's data version
-- like a change to comments (the answer cache, docs/decisions/2026-11-24-answer-cache.md); found by
-- test/answer-cache-coverage.test.ts, which checks every table a cached route reads.
CREATE CONSTRAINT TRIGGER attachments_data_version AFTER INSERT OR UPDATE OR DELETE ON "attachments"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION data_version_bump();
