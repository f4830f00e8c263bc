/**
 * Bulk seeding for the ticket benchmark: generate_series straight into the app's tables, run as the owner role, on
 * PostgreSQL (several connections in parallel) or PGlite (its one connection).
 *
 * Every value is a pure function of the ticket's position g (1..tickets) through pg_temp helper functions, so the data
 * set is the same on every run and comments, comments_tsv and events can be generated independently of the tickets.
 * Tickets are interleaved over time: the largest organization (org 1) owns every (tickets / bigTickets)-th ticket,
 * and the others share the rest, so its rows are spread over the whole table as a real tenant's would be.
 */
import { createHash } from "node:crypto";
import {
  AGENT_OPENERS,
  AGENT_SENTENCES,
  CUSTOMER_FOLLOWUPS,
  DETAILS,
  EMAIL_DOMAINS,
  FIRST_NAMES,
  LAST_NAMES,
  OPENERS,
  ORDER_ISSUES,
  ORG_NAMES,
  PROBLEMS,
  PRODUCTS,
  REQUESTS,
  SYMPTOMS,
  TAGS,
  TOPICS,
  VOCABULARY,
} from "./words.ts";

export interface SeedPlan {
  /** All tickets, over every organization. */
  tickets: number;
  organizations: number;
  /** The tickets of organization 1, the largest; these have comments. */
  bigTickets: number;
  /** Users of the largest organization (one admin, the rest agents); every other organization has three. */
  bigUsers: number;
  /** "Now" for the data set: tickets are spread over the year before it. */
  now: Date;
}

/** Runs one SQL statement and answers its rows. */
export type Run = (statement: string) => Promise<Record<string, unknown>[]>;

export const SMALL_ORG_USERS = 3;
const CHUNK = 50_000;

/** The bearer token of organization n's benchmark session (its admin); the session row stores sha256 of it. */
export function sessionToken(org: number): string {
  return `bench${createHash("md5").update(`session-${org}`).digest("hex")}`;
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const lit = (s: string) => `'${s.replaceAll("'", "''")}'`;
const arr = (items: readonly string[]) => `array[${items.map(lit).join(",")}]::text[]`;

/**
 * Helper functions in pg_temp: they vanish with the connection and never touch the app's schema. The one-line SQL
 * functions are inlined by the planner; words() and the text builders are called per row.
 */
export function helperFunctions(plan: SeedPlan): string[] {
  const T = plan.tickets;
  const B = plan.bigTickets;
  const small = Math.max(plan.organizations - 1, 1);
  const now = lit(plan.now.toISOString());
  // The tag at a 0-based index expression.
  const tag = (index: string) => `(${arr(TAGS)})[1 + (${index})::int]`;
  const n = TAGS.length;
  const fn = (signature: string, returns: string, body: string, lang = "sql") =>
    `create or replace function pg_temp.${signature} returns ${returns} language ${lang} stable as $fn$ ${body} $fn$`;
  return [
    // A deterministic pseudo-random number in [0, 1) for (g, salt).
    fn("h(g bigint, salt int)", "float8", "select (hashint8(g * 4096 + salt) & 2147483647)::float8 / 2147483648.0"),
    // A UUID (version 4 layout) derived from a kind and a number.
    fn(
      "uid(kind text, n bigint)",
      "uuid",
      "select overlay(overlay(md5(kind || ':' || n) placing '4' from 13) placing '8' from 17)::uuid",
    ),
    fn("pick(list text[], r float8)", "text", "select list[1 + floor(r * cardinality(list))::int]"),
    // A capitalized run of n words of list, skewed towards its head (skew > 1: the first entries common, the tail rare).
    fn(
      "words(list text[], g bigint, salt int, n int, skew float8)",
      "text",
      `declare out text; i int; len int := cardinality(list);
       begin
         out := list[1 + floor(power(pg_temp.h(g, salt + 1), skew) * len)::int];
         out := upper(left(out, 1)) || substr(out, 2);
         for i in 2..n loop
           out := out || ' ' || list[1 + floor(power(pg_temp.h(g, salt + i), skew) * len)::int];
         end loop;
         return out;
       end`,
      "plpgsql",
    ),
    // Ticket g: its organization and number.
    fn("t_big(g bigint)", "boolean", `select (g * ${B}) / ${T} > ((g - 1) * ${B}) / ${T}`),
    fn(
      "t_org(g bigint)",
      "int",
      `select case when pg_temp.t_big(g) then 1 else 2 + ((g - 1 - (g * ${B}) / ${T}) % ${small})::int end`,
    ),
    fn(
      "t_num(g bigint)",
      "int",
      `select case when pg_temp.t_big(g) then ((g * ${B}) / ${T})::int
                   else ((g - 1 - (g * ${B}) / ${T}) / ${small} + 1)::int end`,
    ),
    fn("o_users(org int)", "int", `select case when org = 1 then ${plan.bigUsers} else ${SMALL_ORG_USERS} end`),
    fn("u_id(org int, i int)", "uuid", "select pg_temp.uid('user', org * 1000 + i)"),
    fn("u_first(org int, i int)", "text", `select pg_temp.pick(${arr(FIRST_NAMES)}, pg_temp.h(org * 1000 + i, 1))`),
    fn("u_last(org int, i int)", "text", `select pg_temp.pick(${arr(LAST_NAMES)}, pg_temp.h(org * 1000 + i, 2))`),
    // Created over the year before now, oldest first; the newest ticket is a few minutes old.
    fn(
      "t_created(g bigint)",
      "timestamptz",
      `select ${now}::timestamptz - interval '365 days' * (1 - (g - 1)::float8 / ${T})
              - interval '1 minute' * (5 + 30 * pg_temp.h(g, 1))`,
    ),
    fn(
      "t_status(g bigint)",
      "text",
      `select case when pg_temp.t_created(g) > ${now}::timestamptz - interval '14 days' then
                case when pg_temp.h(g, 2) < 0.45 then 'open' when pg_temp.h(g, 2) < 0.70 then 'pending'
                     when pg_temp.h(g, 2) < 0.88 then 'solved' else 'closed' end
              else
                case when pg_temp.h(g, 2) < 0.06 then 'open' when pg_temp.h(g, 2) < 0.10 then 'pending'
                     when pg_temp.h(g, 2) < 0.35 then 'solved' else 'closed' end
              end`,
    ),
    fn(
      "t_priority(g bigint)",
      "text",
      `select case when pg_temp.h(g, 3) < 0.25 then 'low' when pg_temp.h(g, 3) < 0.75 then 'normal'
                   when pg_temp.h(g, 3) < 0.93 then 'high' else 'urgent' end`,
    ),
    fn(
      "t_updated(g bigint)",
      "timestamptz",
      `select least(${now}::timestamptz, pg_temp.t_created(g) + interval '14 days' * power(pg_temp.h(g, 4), 3))`,
    ),
    fn(
      "t_assignee(g bigint)",
      "uuid",
      `select case when pg_temp.h(g, 6) < case pg_temp.t_status(g) when 'open' then 0.35 when 'pending' then 0.10 else 0.03 end
                then null
                else pg_temp.u_id(pg_temp.t_org(g), floor(pg_temp.h(g, 7) * pg_temp.o_users(pg_temp.t_org(g)))::int) end`,
    ),
    fn(
      "t_source(g bigint)",
      "text",
      `select case when pg_temp.h(g, 8) < 0.40 then 'web' when pg_temp.h(g, 8) < 0.75 then 'email'
                   when pg_temp.h(g, 8) < 0.85 then 'chat' when pg_temp.h(g, 8) < 0.95 then 'portal' else 'api' end`,
    ),
    fn("t_first(g bigint)", "text", `select pg_temp.pick(${arr(FIRST_NAMES)}, pg_temp.h(g, 9))`),
    fn("t_last(g bigint)", "text", `select pg_temp.pick(${arr(LAST_NAMES)}, power(pg_temp.h(g, 10), 1.5))`),
    fn(
      "t_email(g bigint)",
      "text",
      `select lower(pg_temp.t_first(g)) || '.' || replace(lower(pg_temp.t_last(g)), '''', '')
              || case when pg_temp.h(g, 11) < 0.5 then '' else (10 + floor(pg_temp.h(g, 12) * 90))::text end
              || '@' || pg_temp.pick(${arr(EMAIL_DOMAINS)}, power(pg_temp.h(g, 13), 2))`,
    ),
    fn("t_product(g bigint)", "text", `select pg_temp.pick(${arr(PRODUCTS)}, power(pg_temp.h(g, 14), 1.6))`),
    fn(
      "t_product_cap(g bigint)",
      "text",
      `select pg_temp.pick(${arr(PRODUCTS.map(cap))}, power(pg_temp.h(g, 14), 1.6))`,
    ),
    fn("t_symptom(g bigint)", "text", `select pg_temp.pick(${arr(SYMPTOMS)}, pg_temp.h(g, 15))`),
    fn("t_topic(g bigint)", "text", `select pg_temp.pick(${arr(TOPICS)}, power(pg_temp.h(g, 16), 1.4))`),
    fn("t_topic_cap(g bigint)", "text", `select pg_temp.pick(${arr(TOPICS.map(cap))}, power(pg_temp.h(g, 16), 1.4))`),
    fn(
      "t_subject(g bigint)",
      "text",
      `select case floor(pg_temp.h(g, 17) * 6)::int
         when 0 then pg_temp.pick(${arr(PROBLEMS)}, pg_temp.h(g, 18)) || ' with my ' || pg_temp.t_product(g)
         when 1 then pg_temp.t_product_cap(g) || ' ' || pg_temp.t_symptom(g)
         when 2 then 'Question about ' || pg_temp.t_topic(g)
         when 3 then pg_temp.t_topic_cap(g) || ': ' || pg_temp.t_product(g) || ' ' || pg_temp.t_symptom(g)
         when 4 then 'Order #' || (10000 + floor(pg_temp.h(g, 19) * 90000))::int || ' '
                     || pg_temp.pick(${arr(ORDER_ISSUES)}, pg_temp.h(g, 20))
         else pg_temp.pick(${arr(REQUESTS)}, pg_temp.h(g, 21)) || ' ' || pg_temp.t_topic(g) end`,
    ),
    fn(
      "t_description(g bigint)",
      "text",
      `select pg_temp.pick(${arr(OPENERS)}, pg_temp.h(g, 22)) || ' ' || pg_temp.t_product(g) || ' '
              || pg_temp.t_symptom(g) || '. '
              || pg_temp.pick(${arr(DETAILS)}, pg_temp.h(g, 23)) || ' '
              || case when pg_temp.h(g, 24) < 0.5 then pg_temp.pick(${arr(DETAILS)}, pg_temp.h(g, 25)) || ' ' else '' end
              || pg_temp.words(${arr(VOCABULARY)}, g, 100, 6 + floor(pg_temp.h(g, 26) * 18)::int, 2.2)
              || '. Thanks, ' || pg_temp.t_first(g)`,
    ),
    fn(
      "t_tags(g bigint)",
      "text[]",
      `select case when pg_temp.h(g, 27) < 0.3 then '{}'::text[]
                   when pg_temp.h(g, 27) < 0.75 then array[${tag(`floor(pg_temp.h(g, 28) * ${n})`)}]
                   else array[${tag(`floor(pg_temp.h(g, 28) * ${n})`)},
                              ${tag(`(floor(pg_temp.h(g, 28) * ${n}) + 1 + floor(pg_temp.h(g, 29) * ${n - 1}))::int % ${n}`)}] end`,
    ),
    // Comments: the largest organization's tickets have 1 to 3 (2 on average); odd ones are the team's replies.
    fn(
      "t_comments(g bigint)",
      "int",
      "select case when pg_temp.t_big(g) then 1 + floor(pg_temp.h(g, 30) * 3)::int else 0 end",
    ),
    fn(
      "c_agent(g bigint, k int)",
      "int",
      "select floor(pg_temp.h(g, 40 + k) * pg_temp.o_users(pg_temp.t_org(g)))::int",
    ),
    fn(
      "c_body(g bigint, k int)",
      "text",
      `select case when k % 2 = 1 then
                pg_temp.pick(${arr(AGENT_OPENERS)}, pg_temp.h(g, 50 + k)) || ' '
                || pg_temp.pick(${arr(AGENT_SENTENCES)}, pg_temp.h(g, 60 + k)) || ' '
                || pg_temp.words(${arr(VOCABULARY)}, g, 300 + 40 * k, 4 + floor(pg_temp.h(g, 70 + k) * 12)::int, 2.2)
                || '. Best, ' || pg_temp.u_first(pg_temp.t_org(g), pg_temp.c_agent(g, k))
              else
                pg_temp.pick(${arr(CUSTOMER_FOLLOWUPS)}, pg_temp.h(g, 80 + k)) || ' '
                || pg_temp.words(${arr(VOCABULARY)}, g, 300 + 40 * k, 3 + floor(pg_temp.h(g, 90 + k) * 10)::int, 2.2)
                || '.'
              end`,
    ),
    // What the app's appendCommentWords builds: '' || to_tsvector(body 1) || to_tsvector(body 2) ...
    fn(
      "t_comments_tsv(g bigint)",
      "tsvector",
      `select ''::tsvector
              || case when pg_temp.t_comments(g) >= 1 then to_tsvector('english'::regconfig, pg_temp.c_body(g, 1))
                      else ''::tsvector end
              || case when pg_temp.t_comments(g) >= 2 then to_tsvector('english'::regconfig, pg_temp.c_body(g, 2))
                      else ''::tsvector end
              || case when pg_temp.t_comments(g) >= 3 then to_tsvector('english'::regconfig, pg_temp.c_body(g, 3))
                      else ''::tsvector end`,
    ),
  ];
}

export function organizationsAndUsers(plan: SeedPlan): string[] {
  const N = plan.organizations;
  return [
    `insert into organizations (id, name, slug, plan, subscription_status, timezone, ticket_seq, created_at, updated_at)
     select pg_temp.uid('org', o),
            case when o = 1 then 'Northwind Outfitters'
                 else pg_temp.pick(${arr(ORG_NAMES)}, pg_temp.h(o, 3)) || ' ' || o end,
            'bench-' || o, 'business', 'active', 'UTC', 0,
            ${lit(plan.now.toISOString())}::timestamptz - interval '400 days',
            ${lit(plan.now.toISOString())}::timestamptz - interval '400 days'
     from generate_series(1, ${N}) o`,
    `insert into users (id, organization_id, email, first_name, last_name, role, status, created_at, updated_at)
     select pg_temp.u_id(o, i), pg_temp.uid('org', o),
            case when i = 0 then 'admin' else 'agent' || i end || '.org' || o || '@bench.cove.test',
            pg_temp.u_first(o, i), pg_temp.u_last(o, i),
            case when i = 0 then 'admin' else 'agent' end, 'active',
            ${lit(plan.now.toISOString())}::timestamptz - interval '400 days',
            ${lit(plan.now.toISOString())}::timestamptz - interval '400 days'
     from generate_series(1, ${N}) o cross join lateral generate_series(0, pg_temp.o_users(o) - 1) i`,
    // One session per organization for its admin; the benchmark client sends sessionToken(o).
    `insert into sessions (id, organization_id, user_id, token_hash, expires_at)
     select pg_temp.uid('session', o), pg_temp.uid('org', o), pg_temp.u_id(o, 0),
            encode(sha256(convert_to('bench' || md5('session-' || o), 'UTF8')), 'hex'),
            now() + interval '30 days'
     from generate_series(1, ${N}) o`,
  ];
}

/** The ticket statements, one per chunk of g, so they can run in parallel. */
export function ticketChunks(plan: SeedPlan): { label: string; sql: string }[] {
  const out: { label: string; sql: string }[] = [];
  for (let lo = 1; lo <= plan.tickets; lo += CHUNK) {
    const hi = Math.min(plan.tickets, lo + CHUNK - 1);
    const range = `generate_series(${lo}::bigint, ${hi}::bigint) g`;
    out.push({
      label: `tickets ${lo}-${hi}`,
      sql: `insert into tickets (id, organization_id, ticket_number, subject, description, status, priority, source,
                                 requester_name, requester_email, assignee_id, tags, comments_tsv,
                                 created_at, updated_at, solved_at)
            select pg_temp.uid('ticket', g), pg_temp.uid('org', pg_temp.t_org(g)), pg_temp.t_num(g),
                   pg_temp.t_subject(g), pg_temp.t_description(g), st, pg_temp.t_priority(g), pg_temp.t_source(g),
                   pg_temp.t_first(g) || ' ' || pg_temp.t_last(g), pg_temp.t_email(g), pg_temp.t_assignee(g),
                   pg_temp.t_tags(g), pg_temp.t_comments_tsv(g),
                   pg_temp.t_created(g), up, case when st in ('solved', 'closed') then up end
            from ${range}
            cross join lateral (select pg_temp.t_status(g) as st, pg_temp.t_updated(g) as up) x`,
    });
    out.push({
      label: `comments ${lo}-${hi}`,
      sql: `insert into ticket_comments (id, organization_id, ticket_id, author_id, author_name, author_email, body,
                                         is_public, created_at)
            select pg_temp.uid('comment', g * 8 + k), pg_temp.uid('org', pg_temp.t_org(g)), pg_temp.uid('ticket', g),
                   case when k % 2 = 1 then pg_temp.u_id(pg_temp.t_org(g), pg_temp.c_agent(g, k)) end,
                   case when k % 2 = 1
                        then pg_temp.u_first(pg_temp.t_org(g), pg_temp.c_agent(g, k)) || ' '
                             || pg_temp.u_last(pg_temp.t_org(g), pg_temp.c_agent(g, k))
                        else pg_temp.t_first(g) || ' ' || pg_temp.t_last(g) end,
                   case when k % 2 = 1
                        then 'agent' || pg_temp.c_agent(g, k) || '.org' || pg_temp.t_org(g) || '@bench.cove.test'
                        else pg_temp.t_email(g) end,
                   pg_temp.c_body(g, k),
                   k % 2 = 0 or pg_temp.h(g, 95 + k) < 0.85,
                   c + (u - c) * (k::float8 / (pg_temp.t_comments(g) + 1))
            from ${range}
            cross join lateral generate_series(1, pg_temp.t_comments(g)) k
            cross join lateral (select pg_temp.t_created(g) as c, pg_temp.t_updated(g) as u) x
            where pg_temp.t_big(g)`,
    });
    // Every ticket has its "created" event; the largest organization's also have their status change.
    out.push({
      label: `events ${lo}-${hi}`,
      sql: `insert into ticket_events (organization_id, ticket_id, actor_id, actor_name, type, from_value, to_value,
                                       created_at)
            select pg_temp.uid('org', o), pg_temp.uid('ticket', g), pg_temp.u_id(o, 0),
                   pg_temp.u_first(o, 0) || ' ' || pg_temp.u_last(o, 0), 'created', null, '#' || pg_temp.t_num(g),
                   pg_temp.t_created(g)
            from ${range} cross join lateral (select pg_temp.t_org(g) as o) x
            union all
            select pg_temp.uid('org', 1), pg_temp.uid('ticket', g), pg_temp.u_id(1, 1),
                   pg_temp.u_first(1, 1) || ' ' || pg_temp.u_last(1, 1), 'status', 'open', st, pg_temp.t_updated(g)
            from ${range} cross join lateral (select pg_temp.t_status(g) as st) x
            where pg_temp.t_big(g) and st <> 'open'`,
    });
  }
  return out;
}

export const finishing = [
  `update organizations o set ticket_seq = t.n
   from (select organization_id, max(ticket_number) as n from tickets group by organization_id) t
   where o.id = t.organization_id`,
  // The load ran with triggers off (session_replication_role = replica), so the tallies are counted once at the end.
  "select ticket_tallies_rebuild()",
];

export const SEEDED_TABLES = ["tickets", "ticket_comments", "ticket_events"] as const;
const COUNTED_TABLES = ["ticket_tallies", "ticket_totals"];

/** The secondary indexes of the ticket tables (not those behind a constraint), to drop before a bulk load. */
export const secondaryIndexesQuery = `
  select i.indexname as name, i.indexdef as def
  from pg_indexes i
  where i.schemaname = 'public' and i.tablename in (${SEEDED_TABLES.map(lit).join(", ")})
    and not exists (select 1 from pg_constraint c where c.conname = i.indexname)
  order by case when i.indexdef ilike '%using gin%' then 0 else 1 end, i.indexname`;

export interface IndexDef {
  name: string;
  def: string;
}

export function readIndexes(rows: Record<string, unknown>[]): IndexDef[] {
  return rows.map((r) => ({ name: String(r.name), def: String(r.def) }));
}

/**
 * Seeds the data set. runners: one per connection (PostgreSQL: several, in parallel; PGlite: one). The app's
 * secondary indexes are dropped for the load and rebuilt from their own definitions afterwards.
 */
export async function seed(plan: SeedPlan, runners: Run[], log: (line: string) => void): Promise<void> {
  const [first] = runners;
  if (!first) throw new Error("seed needs at least one connection");
  const started = performance.now();
  const since = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
  for (const run of runners) {
    // Bulk load as the owner: skip the per-row foreign-key triggers (the data is consistent by construction).
    await run("set session_replication_role = replica");
    for (const statement of helperFunctions(plan)) await run(statement);
  }
  for (const statement of organizationsAndUsers(plan)) await first(statement);
  const indexes = readIndexes(await first(secondaryIndexesQuery));
  for (const index of indexes) await first(`drop index "${index.name}"`);
  log(`dropped ${indexes.length} secondary indexes for the load (${since()})`);

  await inParallel(runners, ticketChunks(plan), async (run, job) => {
    await run(job.sql);
    if (job.label.startsWith("tickets")) log(`${job.label} (${since()})`);
  });
  log(`rows loaded (${since()})`);

  await inParallel(runners, indexes, async (run, index) => {
    await run(index.def);
    log(`index ${index.name} (${since()})`);
  });
  for (const statement of finishing) await first(statement);
  for (const run of runners) await run("set session_replication_role = origin");
  for (const table of [...SEEDED_TABLES, ...COUNTED_TABLES, "organizations", "users", "sessions"]) {
    await first(`vacuum (analyze) ${table}`);
  }
  log(`vacuum analyze done (${since()})`);
}

/** Hands jobs to runners as they become free, in order. */
async function inParallel<T>(runners: Run[], jobs: T[], work: (run: Run, job: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    runners.map(async (run) => {
      while (next < jobs.length) {
        const job = jobs[next++] as T;
        await work(run, job);
      }
    }),
  );
}
