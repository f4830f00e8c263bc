-- Reports (docs/reports.md, docs/decisions/2026-11-29-reports.md): each ticket's business minutes from its creation
-- to its first response and to its (last) solve are stored on the ticket, so a report groups them in SQL instead of
-- working them out in Node for every ticket of its range.
--
-- Business minutes between two instants under business hours (working days 0 = Sunday, opening and closing minute of
-- the day) read in a time zone: the sum of each working day's opening window that overlaps them. The windows are wall
-- clock times of the zone, so a change of clocks shortens or lengthens the day as it happens; a window whose closing
-- time is not after its opening time runs past midnight into the next day (22:00-06:00). The same count as
-- businessMinutesCounter in modules/automation/sla.ts (a test holds the two together).
CREATE OR REPLACE FUNCTION business_minutes_between(
  start_at timestamptz, end_at timestamptz, tz text, work_days smallint[], opens integer, closes integer
) RETURNS double precision LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN start_at IS NULL OR end_at IS NULL THEN NULL
    WHEN end_at <= start_at THEN 0::float8
    ELSE coalesce((
      SELECT sum(extract(epoch FROM least(end_at, w.closes_at) - greatest(start_at, w.opens_at)))::float8 / 60
      FROM generate_series(((start_at AT TIME ZONE tz)::date - 1)::timestamp, (end_at AT TIME ZONE tz)::date::timestamp,
                           interval '1 day') AS d(day)
      CROSS JOIN LATERAL (
        SELECT (d.day + opens * interval '1 minute') AT TIME ZONE tz AS opens_at,
               (d.day + CASE WHEN closes <= opens THEN interval '1 day' ELSE interval '0' END
                      + closes * interval '1 minute') AT TIME ZONE tz AS closes_at
      ) w
      WHERE extract(dow FROM d.day)::smallint = ANY (work_days)
        AND w.closes_at > w.opens_at AND w.closes_at > start_at AND w.opens_at < end_at
    ), 0::float8)
  END
$$;
--> statement-breakpoint
-- The same for an organization's tickets: its business hours (Monday to Friday, 09:00-17:00 until an admin saves
-- some: DEFAULT_BUSINESS_HOURS in packages/contract/src/sla.ts) and its time zone.
CREATE OR REPLACE FUNCTION organization_business_minutes(org uuid, start_at timestamptz, end_at timestamptz)
RETURNS double precision LANGUAGE sql STABLE AS $$
  SELECT business_minutes_between(start_at, end_at, o.timezone, coalesce(h.days, '{1,2,3,4,5}'::smallint[]),
                                  coalesce(h.opens_minute, 540), coalesce(h.closes_minute, 1020))
  FROM organizations o LEFT JOIN business_hours h ON h.organization_id = o.id
  WHERE o.id = org
$$;
--> statement-breakpoint
-- Kept whenever a ticket's creation, first response or solve instant is written, whoever writes it (a reply, a
-- solve, a reopen and solve again: the last solve counts; an import); the sla-recompute job works them out again when
-- the business hours or the time zone change.
CREATE OR REPLACE FUNCTION tickets_business_minutes_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' OR NEW.created_at IS DISTINCT FROM OLD.created_at
     OR NEW.first_responded_at IS DISTINCT FROM OLD.first_responded_at THEN
    NEW.first_response_business_minutes := CASE WHEN NEW.first_responded_at IS NOT NULL
      THEN organization_business_minutes(NEW.organization_id, NEW.created_at, NEW.first_responded_at) END;
  END IF;
  IF TG_OP = 'INSERT' OR NEW.created_at IS DISTINCT FROM OLD.created_at
     OR NEW.solved_at IS DISTINCT FROM OLD.solved_at THEN
    NEW.resolution_business_minutes := CASE WHEN NEW.solved_at IS NOT NULL
      THEN organization_business_minutes(NEW.organization_id, NEW.created_at, NEW.solved_at) END;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER tickets_business_minutes BEFORE INSERT OR UPDATE OF created_at, first_responded_at, solved_at
  ON tickets FOR EACH ROW EXECUTE FUNCTION tickets_business_minutes_track();
--> statement-breakpoint
-- The tickets there are.
UPDATE tickets t
SET first_response_business_minutes = CASE WHEN t.first_responded_at IS NOT NULL
      THEN business_minutes_between(t.created_at, t.first_responded_at, o.timezone,
             coalesce(h.days, '{1,2,3,4,5}'::smallint[]), coalesce(h.opens_minute, 540), coalesce(h.closes_minute, 1020)) END,
    resolution_business_minutes = CASE WHEN t.solved_at IS NOT NULL
      THEN business_minutes_between(t.created_at, t.solved_at, o.timezone,
             coalesce(h.days, '{1,2,3,4,5}'::smallint[]), coalesce(h.opens_minute, 540), coalesce(h.closes_minute, 1020)) END
FROM organizations o LEFT JOIN business_hours h ON h.organization_id = o.id
WHERE o.id = t.organization_id AND (t.first_responded_at IS NOT NULL OR t.solved_at IS NOT NULL);
--> statement-breakpoint
-- The reports' covering index, with the stored minutes (it replaces tickets_org_created_report_idx, migration 0071).
CREATE INDEX "tickets_org_created_minutes_idx" ON "tickets" USING btree ("organization_id", "created_at")
  INCLUDE ("id", "ticket_number", "source", "priority", "status", "assignee_id", "tags", "first_responded_at",
           "solved_at", "first_response_due_at", "resolution_due_at", "first_response_business_minutes",
           "resolution_business_minutes");
--> statement-breakpoint
DROP INDEX IF EXISTS "tickets_org_created_report_idx";
