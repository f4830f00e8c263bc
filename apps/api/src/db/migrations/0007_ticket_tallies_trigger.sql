-- Room on each page for updated versions of its rows (HOT updates), so one organization's rows stay together.
ALTER TABLE ticket_tallies SET (fillfactor = 50);
--> statement-breakpoint
-- ticket_tallies follows every ticket insert, delete, and change of status, priority, assignee or solved_at, in the
-- same transaction, so list totals and dashboard counts are exact without counting tickets.
CREATE OR REPLACE FUNCTION ticket_tallies_apply(
  org uuid, st text, pr text, asg uuid, delta integer, solved timestamptz, created timestamptz
) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  rn integer := CASE WHEN solved IS NULL THEN 0 ELSE delta END;
  rs double precision := CASE WHEN solved IS NULL THEN 0 ELSE delta * extract(epoch FROM solved - created) END;
BEGIN
  IF delta > 0 THEN
    INSERT INTO ticket_tallies AS t (organization_id, status, priority, assignee_id, n, resolved_n, resolved_seconds)
    VALUES (org, st, pr, asg, delta, rn, rs)
    ON CONFLICT ON CONSTRAINT ticket_tallies_key DO UPDATE
      SET n = t.n + excluded.n,
          resolved_n = t.resolved_n + excluded.resolved_n,
          resolved_seconds = t.resolved_seconds + excluded.resolved_seconds;
  ELSE
    -- A removal only updates: its row exists, unless the organization is being deleted along with it.
    UPDATE ticket_tallies
      SET n = n + delta, resolved_n = resolved_n + rn, resolved_seconds = resolved_seconds + rs
      WHERE organization_id = org AND status = st AND priority = pr AND assignee_id IS NOT DISTINCT FROM asg;
  END IF;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ticket_tallies_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM ticket_tallies_apply(NEW.organization_id, NEW.status, NEW.priority, NEW.assignee_id, 1, NEW.solved_at, NEW.created_at);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM ticket_tallies_apply(OLD.organization_id, OLD.status, OLD.priority, OLD.assignee_id, -1, OLD.solved_at, OLD.created_at);
  -- A move touches two rows; taking them in one fixed order keeps two opposite moves at once from deadlocking.
  ELSIF (OLD.status, OLD.priority, coalesce(OLD.assignee_id::text, ''))
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
CREATE TRIGGER tickets_tallies_insert AFTER INSERT ON tickets
  FOR EACH ROW EXECUTE FUNCTION ticket_tallies_track();
--> statement-breakpoint
CREATE TRIGGER tickets_tallies_delete AFTER DELETE ON tickets
  FOR EACH ROW EXECUTE FUNCTION ticket_tallies_track();
--> statement-breakpoint
CREATE TRIGGER tickets_tallies_update
  AFTER UPDATE OF organization_id, status, priority, assignee_id, solved_at, created_at ON tickets
  FOR EACH ROW
  WHEN ((OLD.organization_id, OLD.status, OLD.priority, OLD.assignee_id, OLD.solved_at, OLD.created_at)
        IS DISTINCT FROM (NEW.organization_id, NEW.status, NEW.priority, NEW.assignee_id, NEW.solved_at, NEW.created_at))
  EXECUTE FUNCTION ticket_tallies_track();
--> statement-breakpoint
-- Recounts every organization from its tickets: for this migration, and for bulk loads that bypass the triggers.
CREATE OR REPLACE FUNCTION ticket_tallies_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM ticket_tallies;
  INSERT INTO ticket_tallies (organization_id, status, priority, assignee_id, n, resolved_n, resolved_seconds)
  SELECT organization_id, status, priority, assignee_id, count(*), count(solved_at),
         coalesce(sum(extract(epoch FROM solved_at - created_at)), 0)
  FROM tickets
  GROUP BY organization_id, status, priority, assignee_id
  ORDER BY organization_id;
$$;
--> statement-breakpoint
SELECT ticket_tallies_rebuild();
--> statement-breakpoint
REVOKE EXECUTE ON FUNCTION ticket_tallies_rebuild() FROM PUBLIC;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON "ticket_tallies" TO cove_app;
--> statement-breakpoint
ALTER TABLE "ticket_tallies" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "ticket_tallies_tenant" ON "ticket_tallies"
  USING ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid)
  WITH CHECK ("organization_id" = nullif(current_setting('app.org_id', true), '')::uuid);
--> statement-breakpoint
-- Search candidates: the k most recent tickets of the caller's organization (app.org_id, as for RLS) that match q,
-- with their rank. It runs as the owner because row-level security keeps a non-leakproof operator such as @@ out of
-- index scans. The organization comes from the transaction's own setting, never from an argument, so it can only
-- ever return the caller's tickets.
--
-- Two plans, each bounded: with n tickets in the (filtered) list, walking the newest sqrt(k * n) of them finds k
-- matches of any word that is in more than sqrt(k / n) of the tickets (common words, where the index would hand
-- back thousands of rows to sort). When it finds fewer, the word is rarer than that, so the organization's own
-- entries in tickets_org_words_idx name at most about sqrt(k * n) tickets, and those are read instead.
CREATE OR REPLACE FUNCTION ticket_search_candidates(
  q tsquery, st text, pr text, asg uuid, unassigned boolean, k integer
) RETURNS TABLE (ticket_number integer, rank real, updated_at timestamptz)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
  org uuid := nullif(current_setting('app.org_id', true), '')::uuid;
  filters text := CASE WHEN st IS NULL THEN '' ELSE ' AND t.status = $3' END
    || CASE WHEN pr IS NULL THEN '' ELSE ' AND t.priority = $4' END
    || CASE WHEN unassigned THEN ' AND t.assignee_id IS NULL' WHEN asg IS NULL THEN '' ELSE ' AND t.assignee_id = $5' END;
  listed bigint;
  newest integer;
  numbers integer[];
  ranks real[];
  updated timestamptz[];
BEGIN
  IF org IS NULL OR numnode(q) = 0 THEN
    RETURN;
  END IF;
  EXECUTE 'SELECT coalesce(sum(n), 0) FROM ticket_tallies t WHERE t.organization_id = $2' || filters
    INTO listed USING q, org, st, pr, asg;
  newest := greatest(k, ceil(sqrt(k::float8 * listed)))::integer;
  EXECUTE
    'SELECT array_agg(c.ticket_number), array_agg(ts_rank(c.search_vector, $1)), array_agg(c.updated_at) FROM (
       SELECT r.ticket_number, r.search_vector, r.updated_at FROM (
         SELECT t.ticket_number, t.search_vector, t.updated_at FROM tickets t
         WHERE t.organization_id = $2' || filters || '
         ORDER BY t.updated_at DESC, t.ticket_number DESC LIMIT $6) r
       WHERE r.search_vector @@ $1 LIMIT $7) c'
    INTO numbers, ranks, updated USING q, org, st, pr, asg, newest, k;
  IF coalesce(cardinality(numbers), 0) >= k OR newest >= listed THEN
    RETURN QUERY SELECT * FROM unnest(numbers, ranks, updated);
    RETURN;
  END IF;
  -- OFFSET 0 keeps the organization and filter conditions out of the scan, so it reads the words index alone.
  RETURN QUERY EXECUTE
    'SELECT t.ticket_number, ts_rank(t.search_vector, $1), t.updated_at FROM (
       SELECT w.ticket_number, w.search_vector, w.updated_at, w.organization_id, w.status, w.priority, w.assignee_id
       FROM tickets w WHERE ticket_org_words(w.organization_id, w.search_vector) @@ $6 OFFSET 0) t
     WHERE t.organization_id = $2' || filters || '
     ORDER BY t.updated_at DESC, t.ticket_number DESC LIMIT $7'
    USING q, org, st, pr, asg,
      regexp_replace(q::text, '''((?:[^'']|'''')*)''', '''' || left(org::text, 8) || ':\1''', 'g')::tsquery, k;
END $$;
--> statement-breakpoint
REVOKE EXECUTE ON FUNCTION ticket_search_candidates(tsquery, text, text, uuid, boolean, integer) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION ticket_search_candidates(tsquery, text, text, uuid, boolean, integer) TO cove_app;
