-- data_versions (0012): a counter per organization, bumped by the transactions that change what cached answers show
-- (platform/answer-cache.ts). The bump commits with the change, so once a change is visible the counter differs from
-- the one every earlier answer was cached under.
--
-- Row-level security as for every tenant table, but no grant to the request role: only the triggers below write it
-- (as the owner) and only the answer cache's session check reads it (as the owner, like the session lookup).
ALTER TABLE "data_versions" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "data_versions_tenant" ON "data_versions"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
-- BEFORE each row, so the counter's row is locked before the tallies triggers (AFTER) lock theirs: every ticket
-- change takes its locks in the order ticket row, counter, tallies, as ticket creation does (organization row,
-- counter, tallies), and two of them cannot wait on each other. Once per transaction and organization is enough:
-- the transaction's changes all become visible together, with its one bump.
CREATE OR REPLACE FUNCTION data_version_bump() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
  org uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.organization_id ELSE NEW.organization_id END;
BEGIN
  IF current_setting('cove.data_version_bumped', true) IS DISTINCT FROM org::text THEN
    INSERT INTO data_versions AS d (organization_id, version) VALUES (org, 1)
    ON CONFLICT (organization_id) DO UPDATE SET version = d.version + 1;
    PERFORM set_config('cove.data_version_bumped', org::text, true);
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END $$;
--> statement-breakpoint
REVOKE EXECUTE ON FUNCTION data_version_bump() FROM PUBLIC;
--> statement-breakpoint
CREATE TRIGGER tickets_data_version BEFORE INSERT OR UPDATE OR DELETE ON "tickets"
  FOR EACH ROW EXECUTE FUNCTION data_version_bump();
--> statement-breakpoint
CREATE TRIGGER ticket_comments_data_version BEFORE INSERT OR UPDATE OR DELETE ON "ticket_comments"
  FOR EACH ROW EXECUTE FUNCTION data_version_bump();
--> statement-breakpoint
CREATE TRIGGER ticket_events_data_version BEFORE INSERT OR UPDATE OR DELETE ON "ticket_events"
  FOR EACH ROW EXECUTE FUNCTION data_version_bump();
--> statement-breakpoint
-- The team shows in answers through assignee names and the count of active members; a sign-in (last_login_at) or a
-- new password changes neither, so it bumps nothing.
CREATE TRIGGER users_data_version BEFORE INSERT OR DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION data_version_bump();
--> statement-breakpoint
CREATE TRIGGER users_data_version_change BEFORE UPDATE ON "users"
  FOR EACH ROW
  WHEN (OLD.first_name IS DISTINCT FROM NEW.first_name OR OLD.last_name IS DISTINCT FROM NEW.last_name
        OR OLD.status IS DISTINCT FROM NEW.status OR OLD.organization_id IS DISTINCT FROM NEW.organization_id)
  EXECUTE FUNCTION data_version_bump();
