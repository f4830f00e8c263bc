-- Search (0081's function, the sample's statement changed back to 0078's; which tickets are the candidates does not
-- change). 0081 copied each of the sample's 400 rows' words (`|| ''::tsvector`) so that they were unpacked once, and
-- named the match in a subquery of its own, which the planner merges into the aggregates: the match was then tested
-- once for each of the four aggregates that filter on it, four times a row where 0078 tested it once in the scan. On
-- a quiet machine single-word searches cost 0.4-1.2 ms more of PostgreSQL's CPU than with 0078's function
-- (docs/benchmarks.md, issue 34 item 2). Keeping the copy for several words only changed nothing measurable: the match
-- tested four times was the cost (0.35-1 ms of PostgreSQL's CPU for "refund", "warehou", "Nakamura" under 50
-- clients), and the copy bought nothing measurable for queries of several words either. The sample again reads each
-- row's words in place and tests the match once, in the scan, as 0078 did.
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
  org_probe tsquery;
  recheck text;
  bound_at timestamptz;
  bound_number integer;
  gathered float8;
  in_order boolean;
  by_index boolean;
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
  --    The aggregates take the rows in the subquery's order (no sort), as the newest first. The match is computed in
  --    the subquery, below its LIMIT, so it is tested once a row; named in a subquery without a LIMIT it would be
  --    merged into each aggregate that filters on it and tested four times.
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

  -- What the words index is asked (2a and 2b). Gathering a prefix's tickets costs about a tenth of reading a row per
  -- ticket, so the query's whole words alone are asked when the sample says they are rarer by more than that (the
  -- rows found are then checked for the prefix). The organization's words have no positions, so a phrase (what a
  -- hyphenated word becomes: 'gift-wrap' <-> 'gift' <-> 'wrap') never matched them, and such a search lost every
  -- match older than the rows read in order; the index is asked for the phrase's words ANDed, the rows for the phrase.
  probe := q;
  IF prefix IS NOT NULL
     AND greatest(seen_exact, 0.5) < greatest(seen_q, 0.5) + 0.1 * greatest(seen_prefix, 0.5) THEN
    probe := exact;
  END IF;
  org_probe := regexp_replace(regexp_replace(probe::text, '<(-|[0-9]+)>', '&', 'g'),
    '''((?:[^'']|'''')*)''', '''' || left(org::text, 8) || ':\1''', 'g')::tsquery;
  -- The index matched a row exactly unless it was asked something else than the query, or the query has phrases,
  -- alternatives, negations or weights (the organization's words have no positions or weights).
  recheck := CASE WHEN probe IS DISTINCT FROM q OR q::text ~ '[<!|()]|'':\*?[A-Da-d]' THEN ' AND t.search_vector @@ $1'
    ELSE '' END;

  -- 2a. Read on, up to twice as far as the sample's rate says the remaining matches need, and at least as far again
  --     as the sample: when only a few matches are missing, twice their expected distance is a handful of rows that
  --     may well hold none of them, and the words index would then gather every match of a common word.
  cap := CASE WHEN rate = 1 THEN listed ELSE greatest(sample, ceil(2 * (k - cardinality(numbers)) / rate)) END;
  -- The index gathers each word's tickets over the whole organization before ANDing them: as many as the sample says
  -- the words asked match apart (the whole words, the prefix), not only as many as match them all.
  gathered := everything * greatest(CASE WHEN prefix IS NULL THEN seen_q WHEN probe = exact THEN seen_exact
    ELSE seen_exact + seen_prefix END, 0.5) / sample;
  in_order := rate * rate > k::float8 / listed;
  -- Through the words index when gathering costs less than reading those rows (a tenth of a row a ticket); also for a
  -- rarer word the sample saw a few times, whose matches past the sample the index would otherwise all read.
  by_index := rate < 1 AND 0.1 * gathered < cap AND (in_order OR seen_q >= 4);
  IF in_order OR by_index THEN
    -- The last of those rows (null: the list ends before it).
    EXECUTE
      'SELECT t.updated_at, t.ticket_number FROM tickets t WHERE t.organization_id = $2' || filters || '
         AND (t.updated_at < $6 OR (t.updated_at = $6 AND t.ticket_number < $7))
       ORDER BY t.updated_at DESC, t.ticket_number DESC OFFSET $8 - 1 LIMIT 1'
      INTO bound_at, bound_number USING q, org, st, pr, asg, last_at, last_number, cap;
    more_numbers := NULL;
    IF bound_at IS NOT NULL AND by_index THEN
      -- The same rows' matches without reading the rows: the words index's matches ANDed with the list's index
      -- between the sample's last row and that one, so only the matches are read (about k, not cap rows).
      EXECUTE
        'SELECT array_agg(m.ticket_number), array_agg(ts_rank(m.search_vector, $1)), array_agg(m.updated_at) FROM (
           SELECT t.ticket_number, t.search_vector, t.updated_at FROM tickets t
           WHERE ticket_org_words(t.organization_id, t.search_vector) @@ $10 AND t.organization_id = $2' || filters || '
             AND (t.updated_at, t.ticket_number) < ($6, $7) AND (t.updated_at, t.ticket_number) >= ($11, $12)'
             || recheck || '
           ORDER BY t.updated_at DESC, t.ticket_number DESC LIMIT $9) m'
        INTO more_numbers, more_ranks, more_updated
        USING q, org, st, pr, asg, last_at, last_number, cap, k - cardinality(numbers), org_probe, bound_at,
          bound_number;
    ELSIF in_order THEN
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
    END IF;
    -- (A rarer word whose list ends within those rows read nothing here: the words index below finds its matches.)
    IF more_numbers IS NOT NULL THEN
      numbers := numbers || more_numbers;
      ranks := ranks || more_ranks;
      updated := updated || more_updated;
    END IF;
    -- Enough, or the list ended within the rows read: done. Else the words index looks past them.
    IF cardinality(numbers) >= k OR (bound_at IS NULL AND in_order) THEN
      RETURN QUERY SELECT * FROM unnest(numbers[1:k], ranks[1:k], updated[1:k]);
      RETURN;
    END IF;
    IF bound_at IS NOT NULL THEN
      last_at := bound_at;
      last_number := bound_number;
    END IF;
  END IF;

  -- 2b. The words index, for anything older than what was read.
  RETURN QUERY SELECT * FROM unnest(numbers, ranks, updated);
  -- Unfiltered, OFFSET 0 keeps the organization's condition out of the scan, so it reads the words index alone
  -- (ANDed with the organization's whole index it would cost more than it saves). Filtered, the planner may AND the
  -- words with the filter's own index, so only the matches in the filtered list are read.
  RETURN QUERY EXECUTE
    'SELECT m.ticket_number, ts_rank(m.search_vector, $1), m.updated_at FROM (
       SELECT t.ticket_number, t.search_vector, t.updated_at FROM (
         SELECT w.ticket_number, w.search_vector, w.updated_at, w.organization_id' || filter_columns || '
         FROM tickets w WHERE ticket_org_words(w.organization_id, w.search_vector) @@ $6'
         || CASE WHEN filters = '' THEN ' OFFSET 0' ELSE '' END || ') t
       WHERE t.organization_id = $2' || filters
       || recheck || '
         AND (t.updated_at < $7 OR (t.updated_at = $7 AND t.ticket_number < $8))
       ORDER BY t.updated_at DESC, t.ticket_number DESC LIMIT $9) m'
    USING q, org, st, pr, asg, org_probe, last_at, last_number, k - cardinality(numbers);
END $$;
