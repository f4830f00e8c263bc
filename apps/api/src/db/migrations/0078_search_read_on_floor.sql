-- Search (0043's function, one line changed): when the sample of the newest 400 tickets held nearly enough matches,
-- reading on in order went only twice the expected distance to the few missing ones, a handful of rows. Often none of
-- them matched, and the search then asked the words index for every match older than the sample: for a word in half
-- of 100,000 tickets, 48,000 rows fetched and sorted to find one (1.4 s; 7 such searches a second under load,
-- docs/benchmarks.md). Reading on now goes at least another sample's length (about 3 ms), which finds them. Which
-- tickets are the candidates does not change: both ways take the newest matches in order.
CREATE OR REPLACE FUNCTION ticket_search_candidates(q tsquery, conditions jsonb, k integer) RETURNS TABLE (ticket_number integer, rank real, updated_at timestamptz)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
  org uuid := nullif(current_setting('app.org_id', true), '')::uuid;
  -- The statements below keep 0014's parameter numbers; $3 to $5 (the old filters) are now always null.
  st text;
  pr text;
  asg uuid;
  filters text := '';
  filter_columns text := '';
  cond record;
  column_type text;
  sample constant integer := 400;
  terms text[];
  prefix tsquery;
  exact tsquery;
  read integer;
  last_at timestamptz;
  last_number integer;
  seen_q integer;
  seen_prefix integer;
  seen_exact integer;
  numbers integer[];
  ranks real[];
  updated timestamptz[];
  more_numbers integer[];
  more_ranks real[];
  more_updated timestamptz[];
  listed bigint;
  everything bigint;
  rate float8;
  cap bigint;
  probe tsquery;
BEGIN
  -- The list's filters, as the app defines them (tickets.list.ts): a column of tickets and the value asked for (null:
  -- the column is empty). Each becomes a condition on that column, its value a literal of the column's own type.
  FOR cond IN SELECT key, value FROM jsonb_each(coalesce(conditions, '{}'::jsonb)) LOOP
    SELECT format_type(a.atttypid, a.atttypmod) INTO column_type FROM pg_attribute a
    WHERE a.attrelid = 'tickets'::regclass AND a.attname = cond.key AND a.attnum > 0 AND NOT a.attisdropped;
    IF column_type IS NULL THEN
      RAISE EXCEPTION 'ticket_search_candidates: tickets has no column %', cond.key;
    END IF;
    filters := filters || CASE WHEN jsonb_typeof(cond.value) = 'null' THEN format(' AND t.%I IS NULL', cond.key)
      ELSE format(' AND t.%I = %L::%s', cond.key, cond.value #>> '{}', column_type) END;
    filter_columns := filter_columns || format(', w.%I', cond.key);
  END LOOP;
  IF org IS NULL OR numnode(q) = 0 THEN
    RETURN;
  END IF;
  -- The query's words (tickets.search.ts): whole words ANDed, the last one typed a prefix. Anything else is used whole.
  terms := regexp_split_to_array(q::text, ' & ');
  IF cardinality(terms) > 1 AND terms[cardinality(terms)] LIKE '%:*' AND q::text !~ '[(|!]' THEN
    prefix := terms[cardinality(terms)]::tsquery;
    exact := array_to_string(terms[1:cardinality(terms) - 1], ' & ')::tsquery;
  END IF;

  -- 1. The newest tickets, in order: matches, and how many rows match the query, its prefix and its whole words.
  --    The aggregates take the rows in the subquery's order (no sort), as the newest first.
  EXECUTE
    'SELECT count(*), min(r.updated_at), (array_agg(r.ticket_number))[count(*)],
            count(*) FILTER (WHERE r.m), count(*) FILTER (WHERE r.search_vector @@ $7),
            count(*) FILTER (WHERE r.search_vector @@ $8),
            array_agg(r.ticket_number) FILTER (WHERE r.m), array_agg(ts_rank(r.search_vector, $1)) FILTER (WHERE r.m),
            array_agg(r.updated_at) FILTER (WHERE r.m)
     FROM (SELECT t.ticket_number, t.search_vector, t.updated_at, t.search_vector @@ $1 AS m FROM tickets t
           WHERE t.organization_id = $2' || filters || '
           ORDER BY t.updated_at DESC, t.ticket_number DESC LIMIT $6) r'
    INTO read, last_at, last_number, seen_q, seen_prefix, seen_exact, numbers, ranks, updated
    USING q, org, st, pr, asg, sample, prefix, exact;
  numbers := coalesce(numbers, '{}');
  ranks := coalesce(ranks, '{}');
  updated := coalesce(updated, '{}');
  IF cardinality(numbers) >= k OR read < sample THEN
    RETURN QUERY SELECT * FROM unnest(numbers[1:k], ranks[1:k], updated[1:k]);
    RETURN;
  END IF;

  EXECUTE 'SELECT coalesce(sum(n), 0) FROM '
    || CASE WHEN conditions ? 'assignee_id' THEN 'ticket_tallies' ELSE 'ticket_totals' END
    || ' t WHERE t.organization_id = $2' || filters
    INTO listed USING q, org, st, pr, asg;
  SELECT coalesce(sum(n), 0) INTO everything FROM ticket_totals t WHERE t.organization_id = org;
  listed := greatest(listed, read + 1);
  rate := greatest(seen_q, 0.5) / sample;
  IF listed - sample <= sqrt(k::float8 * everything) / 4 THEN
    rate := 1;
  END IF;

  -- 2a. Read on in order, up to twice as far as the sample's rate says the remaining matches need, and at least as
  --     far again as the sample: when only a few matches are missing, twice their expected distance is a handful of
  --     rows that may well hold none of them, and the words index would then gather every match of a common word.
  IF rate * rate > k::float8 / listed THEN
    cap := CASE WHEN rate = 1 THEN listed ELSE greatest(sample, ceil(2 * (k - cardinality(numbers)) / rate)) END;
    EXECUTE
      'SELECT array_agg(r.ticket_number), array_agg(ts_rank(r.search_vector, $1)), array_agg(r.updated_at) FROM (
         SELECT r.ticket_number, r.search_vector, r.updated_at FROM (
           SELECT t.ticket_number, t.search_vector, t.updated_at FROM tickets t
           WHERE t.organization_id = $2' || filters || '
             AND (t.updated_at < $6 OR (t.updated_at = $6 AND t.ticket_number < $7))
           ORDER BY t.updated_at DESC, t.ticket_number DESC LIMIT $8) r
         WHERE r.search_vector @@ $1 LIMIT $9) r'
      INTO more_numbers, more_ranks, more_updated
      USING q, org, st, pr, asg, last_at, last_number, cap, k - cardinality(numbers);
    numbers := numbers || coalesce(more_numbers, '{}');
    ranks := ranks || coalesce(more_ranks, '{}');
    updated := updated || coalesce(more_updated, '{}');
    IF cardinality(numbers) >= k THEN
      RETURN QUERY SELECT * FROM unnest(numbers[1:k], ranks[1:k], updated[1:k]);
      RETURN;
    END IF;
    -- The matches are rarer further back: all cap rows were read, and the words index looks past them.
    EXECUTE
      'SELECT t.updated_at, t.ticket_number FROM tickets t WHERE t.organization_id = $2' || filters || '
         AND (t.updated_at < $6 OR (t.updated_at = $6 AND t.ticket_number < $7))
       ORDER BY t.updated_at DESC, t.ticket_number DESC OFFSET $8 - 1 LIMIT 1'
      INTO last_at, last_number USING q, org, st, pr, asg, last_at, last_number, cap;
    IF last_at IS NULL THEN
      RETURN QUERY SELECT * FROM unnest(numbers, ranks, updated);
      RETURN;
    END IF;
  END IF;

  -- 2b. The words index. Gathering a prefix's tickets costs about a tenth of reading a row per ticket.
  probe := q;
  IF prefix IS NOT NULL
     AND greatest(seen_exact, 0.5) < greatest(seen_q, 0.5) + 0.1 * greatest(seen_prefix, 0.5) THEN
    probe := exact;
  END IF;
  RETURN QUERY SELECT * FROM unnest(numbers, ranks, updated);
  -- Unfiltered, OFFSET 0 keeps the organization's condition out of the scan, so it reads the words index alone
  -- (ANDed with the organization's whole index it would cost more than it saves). Filtered, the planner may AND the
  -- words with the filter's own index, so only the matches in the filtered list are read.
  RETURN QUERY EXECUTE
    'SELECT t.ticket_number, ts_rank(t.search_vector, $1), t.updated_at FROM (
       SELECT w.ticket_number, w.search_vector, w.updated_at, w.organization_id' || filter_columns || '
       FROM tickets w WHERE ticket_org_words(w.organization_id, w.search_vector) @@ $6'
       || CASE WHEN filters = '' THEN ' OFFSET 0' ELSE '' END || ') t
     WHERE t.organization_id = $2' || filters || ' AND t.search_vector @@ $1
       AND (t.updated_at < $7 OR (t.updated_at = $7 AND t.ticket_number < $8))
     ORDER BY t.updated_at DESC, t.ticket_number DESC LIMIT $9'
    USING q, org, st, pr, asg,
      regexp_replace(probe::text, '''((?:[^'']|'''')*)''', '''' || left(org::text, 8) || ':\1''', 'g')::tsquery,
      last_at, last_number, k - cardinality(numbers);
END $$;
