-- A ticket's answer shows its customer's rating (issue 29), so answering or changing a survey changes the
-- organization's data version like a change to comments (the answer cache, docs/decisions/2026-11-24-answer-cache.md).
CREATE CONSTRAINT TRIGGER csat_surveys_data_version AFTER INSERT OR UPDATE OR DELETE ON "csat_surveys"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION data_version_bump();
