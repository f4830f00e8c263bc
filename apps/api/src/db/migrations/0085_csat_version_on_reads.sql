-- A survey's email writes its link's token to the survey (token_hash, updated_at; expires_at when asked anew), which
-- no cached answer reads: the ticket's rating reads the rating, comment and answer time, the reports the survey's
-- ticket, agent, solve and answer. Under 0058's trigger that write bumped the organization's data version a second
-- time for every solve, dropping every cached ticket list and report again a few seconds after the solve. Now a survey
-- added or removed bumps it, and a change bumps it only when it touches a column those answers read (as 0080 did for
-- chats); test/platform/answer-cache-coverage.test.ts still finds the table versioned (the insert and delete trigger
-- has no condition).
DROP TRIGGER IF EXISTS csat_surveys_data_version ON "csat_surveys";
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER csat_surveys_data_version AFTER INSERT OR DELETE ON "csat_surveys"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION data_version_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER csat_surveys_data_version_change AFTER UPDATE ON "csat_surveys"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.rating IS DISTINCT FROM NEW.rating OR OLD.comment IS DISTINCT FROM NEW.comment
        OR OLD.answered_at IS DISTINCT FROM NEW.answered_at OR OLD.solved_at IS DISTINCT FROM NEW.solved_at
        OR OLD.agent_id IS DISTINCT FROM NEW.agent_id OR OLD.ticket_id IS DISTINCT FROM NEW.ticket_id
        OR OLD.contact_id IS DISTINCT FROM NEW.contact_id OR OLD.organization_id IS DISTINCT FROM NEW.organization_id)
  EXECUTE FUNCTION data_version_bump();
