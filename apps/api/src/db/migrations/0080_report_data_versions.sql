-- The reports' answers are cached (issue 31; platform/answer-cache.ts, docs/decisions/2026-11-29-reports.md), so what
-- a report reads must bump the organization's data version when it changes (test/platform/answer-cache-coverage.test.ts
-- checks the tables). tickets, ticket_comments, ticket_events and csat_surveys already do. The triggers below bump only
-- on the changes a report can see, so that a busy organization's chat messages and confident assistant answers do not
-- drop every cached ticket list too.
--
-- Live chats: a chat started or removed, and the columns chatsByDay / chatsByHour read (modules/chat/chat.reports.ts);
-- a message (last_message, last_message_at, ai_replies) bumps nothing.
CREATE CONSTRAINT TRIGGER chat_sessions_data_version AFTER INSERT OR DELETE ON "chat_sessions"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION data_version_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER chat_sessions_data_version_change AFTER UPDATE ON "chat_sessions"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.started_at IS DISTINCT FROM NEW.started_at OR OLD.assigned_agent_id IS DISTINCT FROM NEW.assigned_agent_id
        OR OLD.resolved_by_ai IS DISTINCT FROM NEW.resolved_by_ai OR OLD.handed_off_at IS DISTINCT FROM NEW.handed_off_at
        OR OLD.rating IS DISTINCT FROM NEW.rating OR OLD.organization_id IS DISTINCT FROM NEW.organization_id)
  EXECUTE FUNCTION data_version_bump();
--> statement-breakpoint
-- Assistant answers: the report lists the questions it could not answer (unansweredBetween in modules/ai/ai.queries.ts:
-- not the console, not a request for a person, and handed off, below LOW_CONFIDENCE = 0.6 or given a thumbs down).
-- A new answer bumps only when it is such a question; a change bumps when a column that condition or the list reads
-- changes (a thumbs down given later), a removal always.
CREATE CONSTRAINT TRIGGER ai_answers_data_version AFTER INSERT ON "ai_answers"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (NEW.channel <> 'console' AND NEW.provider <> 'handoff-request'
        AND (NEW.handoff OR NEW.confidence < 0.6 OR NEW.feedback IS NOT DISTINCT FROM 'down'))
  EXECUTE FUNCTION data_version_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER ai_answers_data_version_change AFTER UPDATE ON "ai_answers"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.question IS DISTINCT FROM NEW.question OR OLD.handoff IS DISTINCT FROM NEW.handoff
        OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.channel IS DISTINCT FROM NEW.channel
        OR OLD.provider IS DISTINCT FROM NEW.provider OR OLD.confidence IS DISTINCT FROM NEW.confidence
        OR OLD.feedback IS DISTINCT FROM NEW.feedback OR OLD.organization_id IS DISTINCT FROM NEW.organization_id)
  EXECUTE FUNCTION data_version_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER ai_answers_data_version_delete AFTER DELETE ON "ai_answers"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION data_version_bump();
--> statement-breakpoint
-- The report's Agents section shows each member's email: a change of it bumps too (0023 had names and status).
DROP TRIGGER IF EXISTS users_data_version_change ON "users";
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER users_data_version_change AFTER UPDATE ON "users"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.first_name IS DISTINCT FROM NEW.first_name OR OLD.last_name IS DISTINCT FROM NEW.last_name
        OR OLD.status IS DISTINCT FROM NEW.status OR OLD.email IS DISTINCT FROM NEW.email
        OR OLD.organization_id IS DISTINCT FROM NEW.organization_id)
  EXECUTE FUNCTION data_version_bump();
--> statement-breakpoint
-- The time zone is in the key of the answers that depend on it (the day of daily answers), but read there before the
-- answer is computed: a change from A to B and back to A while a report is being computed would otherwise leave an
-- answer counted in B under A's key. A change of time zone bumps the version, so that cannot be. The organization's
-- row has no organization_id: data_version_bump takes its id.
CREATE OR REPLACE FUNCTION data_version_bump() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
  org uuid;
BEGIN
  IF TG_TABLE_NAME = 'organizations' THEN
    org := NEW.id;
  ELSIF TG_OP = 'DELETE' THEN
    org := OLD.organization_id;
  ELSE
    org := NEW.organization_id;
  END IF;
  IF current_setting('cove.data_version_bumped', true) IS DISTINCT FROM org::text THEN
    INSERT INTO data_versions AS d (organization_id, shard, version)
    VALUES (org, (txid_current() % 16)::smallint, 1)
    ON CONFLICT (organization_id, shard) DO UPDATE SET version = d.version + 1;
    PERFORM set_config('cove.data_version_bumped', org::text, true);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
REVOKE EXECUTE ON FUNCTION data_version_bump() FROM PUBLIC;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER organizations_data_version_timezone AFTER UPDATE ON "organizations"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.timezone IS DISTINCT FROM NEW.timezone)
  EXECUTE FUNCTION data_version_bump();
