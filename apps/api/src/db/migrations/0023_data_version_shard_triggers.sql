-- data_versions in shards (0015), bumped last (docs/decisions/2026-11-25-lock-order-and-sharded-versions.md).
--
-- Before: one row per organization, bumped by a BEFORE trigger at the transaction's first change. Every write of an
-- organization queued on that row until the writer committed, and a writer held it while it went on to take other
-- locks (the organization row for a foreign key, a ticket row), so a team change that held the organization row and
-- then reached for the counter deadlocked with a ticket write that held the counter and then needed the organization
-- row.
--
-- Now the bump is a deferred constraint trigger: it runs at COMMIT, after every other statement of the transaction, so
-- the shard's row lock is the last lock a transaction takes and it is held only while the commit completes. A
-- transaction holding a shard waits for nothing else, so no cycle of waits can pass through a shard. The shard is
-- picked from the transaction id, so concurrent writers of one organization mostly land on different rows, and one
-- transaction bumps one shard of each organization it changed (a transaction-local setting remembers it).
--
-- Exactness (platform/answer-cache.ts): the version is the sum of the organization's shards, read in one statement.
-- Each committed transaction that changed the organization added at least 1 to it, in the same commit as its change,
-- and nothing ever subtracts; a later snapshot sees every transaction an earlier one saw. So two reads that return the
-- same sum saw the same set of changes, and a change, once visible, always comes with a larger sum.
DROP TRIGGER IF EXISTS tickets_data_version ON "tickets";
--> statement-breakpoint
DROP TRIGGER IF EXISTS ticket_comments_data_version ON "ticket_comments";
--> statement-breakpoint
DROP TRIGGER IF EXISTS ticket_events_data_version ON "ticket_events";
--> statement-breakpoint
DROP TRIGGER IF EXISTS users_data_version ON "users";
--> statement-breakpoint
DROP TRIGGER IF EXISTS users_data_version_change ON "users";
--> statement-breakpoint
CREATE OR REPLACE FUNCTION data_version_bump() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
  org uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.organization_id ELSE NEW.organization_id END;
BEGIN
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
CREATE CONSTRAINT TRIGGER tickets_data_version AFTER INSERT OR UPDATE OR DELETE ON "tickets"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION data_version_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER ticket_comments_data_version AFTER INSERT OR UPDATE OR DELETE ON "ticket_comments"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION data_version_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER ticket_events_data_version AFTER INSERT OR UPDATE OR DELETE ON "ticket_events"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION data_version_bump();
--> statement-breakpoint
-- The team shows in answers through assignee names and the count of active members; a sign-in (last_login_at) or a
-- new password changes neither, so it bumps nothing.
CREATE CONSTRAINT TRIGGER users_data_version AFTER INSERT OR DELETE ON "users"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION data_version_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER users_data_version_change AFTER UPDATE ON "users"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.first_name IS DISTINCT FROM NEW.first_name OR OLD.last_name IS DISTINCT FROM NEW.last_name
        OR OLD.status IS DISTINCT FROM NEW.status OR OLD.organization_id IS DISTINCT FROM NEW.organization_id)
  EXECUTE FUNCTION data_version_bump();
