-- ticket_totals: the tallies per (status, priority) without the assignee, so an unfiltered total or a dashboard count
-- adds up at most 16 rows. The triggers of 0007 now keep both tables; every transaction takes the totals rows before
-- the tallies rows, each in key order, so concurrent moves still cannot deadlock.
ALTER TABLE ticket_totals SET (fillfactor = 50);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ticket_totals_apply(
  org uuid, st text, pr text, delta integer, solved timestamptz, created timestamptz
) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  rn integer := CASE WHEN solved IS NULL THEN 0 ELSE delta END;
  rs double precision := CASE WHEN solved IS NULL THEN 0 ELSE delta * extract(epoch FROM solved - created) END;
BEGIN
  IF delta > 0 THEN
    INSERT INTO ticket_totals AS t (organization_id, status, priority, n, resolved_n, resolved_seconds)
    VALUES (org, st, pr, delta, rn, rs)
    ON CONFLICT ON CONSTRAINT ticket_totals_key DO UPDATE
      SET n = t.n + excluded.n,
          resolved_n = t.resolved_n + excluded.resolved_n,
          resolved_seconds = t.resolved_seconds + excluded.resolved_seconds;
  ELSE
    UPDATE ticket_totals
      SET n = n + delta, resolved_n = resolved_n + rn, resolved_seconds = resolved_seconds + rs
      WHERE organization_id = org AND status = st AND priority = pr;
  END IF;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ticket_tallies_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM ticket_totals_apply(NEW.organization_id, NEW.status, NEW.priority, 1, NEW.solved_at, NEW.created_at);
    PERFORM ticket_tallies_apply(NEW.organization_id, NEW.status, NEW.priority, NEW.assignee_id, 1, NEW.solved_at, NEW.created_at);
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN
    PERFORM ticket_totals_apply(OLD.organization_id, OLD.status, OLD.priority, -1, OLD.solved_at, OLD.created_at);
    PERFORM ticket_tallies_apply(OLD.organization_id, OLD.status, OLD.priority, OLD.assignee_id, -1, OLD.solved_at, OLD.created_at);
    RETURN NULL;
  END IF;
  -- A move: the two totals rows first, then the two tallies rows, each pair in key order.
  IF (OLD.organization_id, OLD.status, OLD.priority, OLD.solved_at, OLD.created_at)
     IS DISTINCT FROM (NEW.organization_id, NEW.status, NEW.priority, NEW.solved_at, NEW.created_at) THEN
    IF (OLD.status, OLD.priority) <= (NEW.status, NEW.priority) THEN
      PERFORM ticket_totals_apply(OLD.organization_id, OLD.status, OLD.priority, -1, OLD.solved_at, OLD.created_at);
      PERFORM ticket_totals_apply(NEW.organization_id, NEW.status, NEW.priority, 1, NEW.solved_at, NEW.created_at);
    ELSE
      PERFORM ticket_totals_apply(NEW.organization_id, NEW.status, NEW.priority, 1, NEW.solved_at, NEW.created_at);
      PERFORM ticket_totals_apply(OLD.organization_id, OLD.status, OLD.priority, -1, OLD.solved_at, OLD.created_at);
    END IF;
  END IF;
  IF (OLD.status, OLD.priority, coalesce(OLD.assignee_id::text, ''))
     <= (NEW.status, NEW.priority, coalesce(NEW.assignee_id::text, '')) THEN
    PERFORM ticket_tallies_apply(OLD.organization_id, OLD.status, OLD.priority, OLD.assignee_id, -1, OLD.solved_at, OLD.created_at);
    PERFORM ticket_tallies_apply(NEW.organization_id, NEW.status, NEW.priority, NEW.assignee_id, 1, NEW.solved_at, NEW.created_at);
  ELSE
    PERFORM ticket_tallies_apply(NEW.organization_id, NEW.status, NEW.priority, NEW.assignee_id, 1, NEW.solved_at, NEW.created_at);
    PERFORM ticket_tallies_apply(OLD.organization_id, OLD.status, OLD.priority, OLD.assignee_id, -1, OLD.solved_at, OLD.created_at);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ticket_tallies_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM ticket_tallies;
  DELETE FROM ticket_totals;
  INSERT INTO ticket_tallies (organization_id, status, priority, assignee_id, n, resolved_n, resolved_seconds)
  SELECT organization_id, status, priority, assignee_id, count(*), count(solved_at),
         coalesce(sum(extract(epoch FROM solved_at - created_at)), 0)
  FROM tickets
  GROUP BY organization_id, status, priority, assignee_id
  ORDER BY organization_id, assignee_id;
  INSERT INTO ticket_totals (organization_id, status, priority, n, resolved_n, resolved_seconds)
  SELECT organization_id, status, priority, count(*), count(solved_at),
         coalesce(sum(extract(epoch FROM solved_at - created_at)), 0)
  FROM tickets
  GROUP BY organization_id, status, priority
  ORDER BY organization_id;
$$;
--> statement-breakpoint
SELECT ticket_tallies_rebuild();
--> statement-breakpoint
REVOKE EXECUTE ON FUNCTION ticket_tallies_rebuild() FROM PUBLIC;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON "ticket_totals" TO cove_app;
--> statement-breakpoint
ALTER TABLE "ticket_totals" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "ticket_totals_tenant" ON "ticket_totals"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
