import { csatScore } from "@cove/contract/csat.ts";
import {
  type ChannelCounts,
  REPORT_BREACHED_MAX,
  REPORT_UNANSWERED_MAX,
  type ReportAnswer,
  type ReportPeriod,
  type reportQuery,
  TICKET_CSV_COLUMNS,
} from "@cove/contract/reports.ts";
import { TICKET_PRIORITIES, TICKET_SOURCES } from "@cove/contract/tickets.ts";
import { sql } from "drizzle-orm";
import type { z } from "zod";
import { now } from "../../platform/clock.ts";
import { csvLine } from "../../platform/csv.ts";
import { type Queryable, queryRows } from "../../platform/db.ts";
import type { Ctx } from "../../platform/tenancy.ts";
import { unansweredBetween } from "../ai/ai.queries.ts";
import { groupQuestions } from "../ai/unanswered.ts";
import { businessMinutesCounter, loadConfig, type OpeningWindow } from "../automation/sla.ts";
import { chatsByDay, chatsByHour } from "../chat/chat.reports.ts";
import { ratingsOfTickets, surveysByDay } from "../csat/csat.reports.ts";
import {
  backlogParts,
  type ExportCursor,
  filteredTicketIds,
  type ReportSpan,
  repliesByMember,
  type TicketExportRow,
  type TicketFact,
  type TicketReportFilter,
  ticketExportPage,
  ticketFacts,
  ticketSubjects,
} from "../tickets/tickets.reports.ts";
import { percent, periodsOf, round1, timeStats } from "./reports.periods.ts";

/**
 * Reports (issue 31; every figure defined in docs/reports.md): one answer with every section, read through the owning
 * modules' report functions in the request's transaction, and the per-ticket CSV in pages.
 */

export type ReportQuery = z.output<typeof reportQuery>;

const MINUTE = 60_000;
const asDate = (v: Date | string) => (typeof v === "string" ? new Date(v) : v);

/**
 * The range as instants (the first day's midnight and the midnight after the last day, in the organization's zone)
 * and the instants its periods start at, with the range's end last.
 */
async function spanOf(
  db: Queryable,
  orgId: string,
  q: Pick<ReportQuery, "from" | "to">,
  periodStarts: string[] = [],
): Promise<ReportSpan & { bounds: string[] }> {
  const days = JSON.stringify(periodStarts);
  const [row] = await queryRows<{ timezone: string; start: Date | string; end: Date | string; bounds: number[] }>(
    db,
    sql`select timezone, (${q.from}::date::timestamp at time zone timezone) as start,
               ((${q.to}::date + 1)::timestamp at time zone timezone) as end,
               array(select (extract(epoch from (d::date::timestamp at time zone timezone)) * 1000)::float8
                     from jsonb_array_elements_text(${days}::jsonb) d) as bounds
        from organizations where id = ${orgId}`,
  );
  if (!row) throw new Error("The organization of a signed-in request is missing");
  const end = asDate(row.end).toISOString();
  return {
    timezone: row.timezone,
    start: asDate(row.start).toISOString(),
    end,
    bounds: [...row.bounds.map((b) => new Date(Number(b)).toISOString()), end],
  };
}

const filterOf = (q: ReportQuery): TicketReportFilter => ({
  channel: q.channel,
  agent: q.agent,
  priority: q.priority,
  tag: q.tag,
});

/** Chats have no priority or tags: with those filters, or another channel, chat figures count nothing. */
const chatsCount = (q: ReportQuery) => !q.priority && !q.tag && (!q.channel || q.channel === "chat");

const emptyChannels = (): ChannelCounts => ({ web: 0, email: 0, chat: 0, portal: 0, api: 0, total: 0 });

/** Business minutes between instants, over the earliest and latest instants given. */
function businessCounter(window: OpeningWindow, timezone: string, instants: Date[]) {
  if (instants.length === 0) return () => 0;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const d of instants) {
    const t = d.getTime();
    if (t < min) min = t;
    if (t > max) max = t;
  }
  return businessMinutesCounter(window, timezone, new Date(min), new Date(max));
}

/**
 * Everything a report is worked out from, read through the owning modules in the request's transaction (one statement
 * after another: a transaction runs them one at a time anyway).
 */
async function readFacts(ctx: Ctx, q: ReportQuery, span: ReportSpan & { bounds: string[] }) {
  const { db, orgId } = ctx;
  const f = filterOf(q);
  const filtered = Boolean(q.channel || q.agent || q.priority || q.tag);
  const chats = chatsCount(q);
  const config = await loadConfig(ctx);
  const tickets = await ticketFacts(db, orgId, f, span, span.bounds);
  const backlog = await backlogParts(db, orgId, f, span, span.bounds);
  const replies = await repliesByMember(db, orgId, f, span);
  const surveys = await surveysByDay(
    db,
    orgId,
    filtered ? filteredTicketIds(orgId, f) : null,
    span.start,
    span.end,
    span.timezone,
  );
  const chatDays = chats ? await chatsByDay(db, orgId, q.agent, span.start, span.end, span.timezone) : [];
  const chatHours = chats ? await chatsByHour(db, orgId, q.agent, span.start, span.end, span.timezone) : [];
  const asked = await unansweredBetween(db, orgId, span.start, span.end);
  const members = await queryRows<{ id: string; first_name: string; last_name: string; email: string; status: string }>(
    db,
    sql`select id, first_name, last_name, email, status from users where organization_id = ${orgId}`,
  );
  const sla = slaOf(tickets, now());
  const subjects = await ticketSubjects(
    db,
    orgId,
    sla.breached.map((b) => b.id),
  );
  return { config, tickets, backlog, replies, surveys, chatDays, chatHours, asked, members, sla, subjects };
}
type Facts = Awaited<ReturnType<typeof readFacts>>;

/** The range's periods, and the period a day of it is in (undefined: outside the range, or no day). */
interface Frame {
  periods: ReportPeriod[];
  slot: (day: string | null) => number | undefined;
  /** The period of a width_bucket against the periods' bounds (1: the first). */
  bucket: (b: number | null) => number | undefined;
}

/** Volume per period, and the backlog at each period's end. */
function volumeSection(facts: Facts, { periods, bucket }: Frame): ReportAnswer["volume"] {
  const created = periods.map(emptyChannels);
  const solved = periods.map(emptyChannels);
  const add = (counts: ChannelCounts | undefined, t: TicketFact) => {
    if (!counts) return;
    counts[t.source]++;
    counts.total++;
  };
  for (const t of facts.tickets) {
    add(created[bucket(t.created_bucket) ?? -1], t);
    add(solved[bucket(t.solved_bucket) ?? -1], t);
  }
  // The end of period i is bound i + 1: tickets created by then have a bucket of at most i + 1, and a change after
  // it a bucket above i + 1.
  const backlogAt = (i: number) => {
    let open = 0;
    for (const o of facts.backlog.open) if (o.created_bucket <= i + 1) open += o.n;
    for (const c of facts.backlog.changes) {
      if (c.changed_bucket > i + 1 && c.created_bucket <= i + 1) open -= c.delta;
    }
    return open;
  };
  const sum = (rows: ChannelCounts[]) =>
    rows.reduce((acc, r) => {
      for (const s of TICKET_SOURCES) acc[s] += r[s];
      acc.total += r.total;
      return acc;
    }, emptyChannels());
  return {
    totals: { created: sum(created), solved: sum(solved) },
    rows: periods.map((p, i) => ({
      period: p.start,
      created: created[i] ?? emptyChannels(),
      solved: solved[i] ?? emptyChannels(),
      backlog: backlogAt(i),
    })),
  };
}

/** A ticket's first response and resolution in calendar and business minutes, with the periods they count in. */
interface Measured {
  assignee: string | null;
  respondedSlot: number | undefined;
  solvedSlot: number | undefined;
  fr: number | null;
  frBusiness: number | null;
  res: number | null;
  resBusiness: number | null;
}

function measure(facts: Facts, timezone: string, { bucket }: Frame): Measured[] {
  const instants: Date[] = [];
  for (const t of facts.tickets) {
    instants.push(new Date(t.created));
    if (t.responded !== null) instants.push(new Date(t.responded));
    if (t.solved !== null) instants.push(new Date(t.solved));
  }
  const business = businessCounter(facts.config.window, timezone, instants);
  return facts.tickets.map((t) => {
    const created = new Date(t.created);
    const respondedSlot = bucket(t.responded_bucket);
    const solvedSlot = bucket(t.solved_bucket);
    const responded = respondedSlot === undefined || t.responded === null ? null : new Date(t.responded);
    const solved = solvedSlot === undefined || t.solved === null ? null : new Date(t.solved);
    return {
      assignee: t.assignee_id,
      respondedSlot,
      solvedSlot,
      fr: responded ? (responded.getTime() - created.getTime()) / MINUTE : null,
      frBusiness: responded ? business(created, responded) : null,
      res: solved ? (solved.getTime() - created.getTime()) / MINUTE : null,
      resBusiness: solved ? business(created, solved) : null,
    };
  });
}

/** First responses made in the range (and kept), as figures. */
function firstResponses(measured: Measured[], keep: (m: Measured) => boolean) {
  const kept = measured.filter((m) => m.respondedSlot !== undefined && m.fr !== null && keep(m));
  return timeStats(
    kept.map((m) => m.fr ?? 0),
    kept.map((m) => m.frBusiness ?? 0),
  );
}

/** Solves made in the range (and kept), as figures. */
function resolutions(measured: Measured[], keep: (m: Measured) => boolean) {
  const kept = measured.filter((m) => m.solvedSlot !== undefined && m.res !== null && keep(m));
  return timeStats(
    kept.map((m) => m.res ?? 0),
    kept.map((m) => m.resBusiness ?? 0),
  );
}

/** Groups items by a key, in one pass. */
function groupBy<T, K>(items: T[], key: (item: T) => K | undefined): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    if (k === undefined) continue;
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

function speedSection(measured: Measured[], { periods }: Frame): ReportAnswer["speed"] {
  const responded = groupBy(measured, (m) => m.respondedSlot);
  const solved = groupBy(measured, (m) => m.solvedSlot);
  return {
    first_response: firstResponses(measured, () => true),
    resolution: resolutions(measured, () => true),
    rows: periods.map((p, i) => ({
      period: p.start,
      first_response: firstResponses(responded.get(i) ?? [], () => true),
      resolution: resolutions(solved.get(i) ?? [], () => true),
    })),
  };
}

/** A due time against when it was done: met, missed (late, or not done and past due at `at`), or neither yet. */
function dueOutcome(due: number | null, done: number | null, at: number): "met" | "missed" | null {
  if (due === null) return null;
  if (done !== null) return done <= due ? "met" : "missed";
  return due < at ? "missed" : null;
}

/** SLA per priority over the tickets created in the range with a target, and the missed ones by due time. */
function slaOf(tickets: TicketFact[], at: Date) {
  const counts = new Map<TicketFact["priority"], Record<"fr" | "res", { met: number; missed: number }>>(
    TICKET_PRIORITIES.map((p) => [p, { fr: { met: 0, missed: 0 }, res: { met: 0, missed: 0 } }]),
  );
  const breached: {
    id: string;
    number: number;
    priority: TicketFact["priority"];
    kind: "first_response" | "resolution";
    due: number;
  }[] = [];
  for (const t of tickets) {
    if (t.created_bucket === null || t.created_dow === null) continue;
    const row = counts.get(t.priority);
    if (!row) continue;
    const fr = dueOutcome(t.first_response_due, t.responded, at.getTime());
    const res = dueOutcome(t.resolution_due, t.solved, at.getTime());
    if (fr) row.fr[fr]++;
    if (res) row.res[res]++;
    const base = { id: t.id, number: t.number, priority: t.priority };
    if (fr === "missed") breached.push({ ...base, kind: "first_response", due: t.first_response_due ?? 0 });
    if (res === "missed") breached.push({ ...base, kind: "resolution", due: t.resolution_due ?? 0 });
  }
  breached.sort((a, b) => a.due - b.due || a.number - b.number || a.kind.localeCompare(b.kind));
  return { counts, breached: breached.slice(0, REPORT_BREACHED_MAX), total: breached.length };
}

function slaSection(facts: Facts): ReportAnswer["sla"] {
  const share = (c: { met: number; missed: number }) => ({ ...c, share: percent(c.met, c.met + c.missed) });
  return {
    priorities: TICKET_PRIORITIES.map((priority) => {
      const c = facts.sla.counts.get(priority) ?? { fr: { met: 0, missed: 0 }, res: { met: 0, missed: 0 } };
      return { priority, first_response: share(c.fr), resolution: share(c.res) };
    }),
    breached: facts.sla.breached.map((b) => ({
      id: b.id,
      number: b.number,
      subject: facts.subjects.get(b.id) ?? "",
      priority: b.priority,
      kind: b.kind,
      due_at: new Date(b.due).toISOString(),
    })),
    breached_total: facts.sla.total,
  };
}

interface SatisfactionCounts {
  good: number;
  bad: number;
  sent: number;
  answered: number;
}
const noAnswers = (): SatisfactionCounts => ({ good: 0, bad: 0, sent: 0, answered: 0 });
const satisfactionOf = (r: SatisfactionCounts) => ({
  ...r,
  score: csatScore(r.good, r.bad),
  response_rate: percent(r.answered, r.sent),
});

/** Answered surveys of the range per agent credited with the solve (null: nobody). */
function agentScores(facts: Facts) {
  const byAgent = new Map<string | null, { agent_id: string | null; good: number; bad: number }>();
  for (const s of facts.surveys) {
    if (s.good + s.bad === 0) continue;
    const row = byAgent.get(s.agent_id) ?? { agent_id: s.agent_id, good: 0, bad: 0 };
    row.good += s.good;
    row.bad += s.bad;
    byAgent.set(s.agent_id, row);
  }
  return [...byAgent.values()];
}

/** Satisfaction (ticket surveys by their solve's day, chats' answers by the chat's start) and the assistant. */
function satisfactionAndAssistant(facts: Facts, names: Map<string, string>, { periods, slot }: Frame) {
  const satisfaction = periods.map(noAnswers);
  const assistant = periods.map(() => ({ chats: 0, resolved_by_ai: 0, handed_off: 0 }));
  const ai = { good: 0, bad: 0 };
  const people = { good: 0, bad: 0 };
  for (const s of facts.surveys) {
    people.good += s.good;
    people.bad += s.bad;
    const row = satisfaction[slot(s.day) ?? -1];
    if (!row) continue;
    row.sent += s.sent;
    row.answered += s.answered;
    row.good += s.good;
    row.bad += s.bad;
  }
  for (const c of facts.chatDays) {
    ai.good += c.ai_good;
    ai.bad += c.ai_bad;
    people.good += c.people_good;
    people.bad += c.people_bad;
    const i = slot(c.day) ?? -1;
    const sat = satisfaction[i];
    const row = assistant[i];
    if (!sat || !row) continue;
    sat.good += c.ai_good + c.people_good;
    sat.bad += c.ai_bad + c.people_bad;
    row.chats += c.chats;
    row.resolved_by_ai += c.resolved_by_ai;
    row.handed_off += c.handed_off;
  }
  const total = satisfaction.reduce(
    (acc, r) => ({
      good: acc.good + r.good,
      bad: acc.bad + r.bad,
      sent: acc.sent + r.sent,
      answered: acc.answered + r.answered,
    }),
    noAnswers(),
  );
  const chats = assistant.reduce(
    (acc, r) => ({
      chats: acc.chats + r.chats,
      resolved_by_ai: acc.resolved_by_ai + r.resolved_by_ai,
      handed_off: acc.handed_off + r.handed_off,
    }),
    { chats: 0, resolved_by_ai: 0, handed_off: 0 },
  );
  return {
    satisfaction: {
      overall: satisfactionOf(total),
      rows: periods.map((p, i) => ({ period: p.start, ...satisfactionOf(satisfaction[i] ?? noAnswers()) })),
      agents: agentScores(facts)
        .map((a) => ({
          agent_id: a.agent_id,
          name: a.agent_id ? (names.get(a.agent_id) ?? "") : "",
          good: a.good,
          bad: a.bad,
          score: csatScore(a.good, a.bad),
        }))
        .sort((a, b) => b.good + b.bad - (a.good + a.bad) || a.name.localeCompare(b.name)),
      ai: { ...ai, score: csatScore(ai.good, ai.bad) },
      people: { ...people, score: csatScore(people.good, people.bad) },
    },
    assistant: {
      ...chats,
      handoff_rate: percent(chats.handed_off, chats.chats),
      rows: periods.map((p, i) => {
        const r = assistant[i] ?? { chats: 0, resolved_by_ai: 0, handed_off: 0 };
        return { period: p.start, ...r, handoff_rate: percent(r.handed_off, r.chats) };
      }),
      unanswered: groupQuestions(facts.asked, REPORT_UNANSWERED_MAX).map((g) => ({
        question: g.question,
        count: g.count,
        handed_off: g.handedOff,
      })),
    },
  } satisfies Pick<ReportAnswer, "satisfaction" | "assistant">;
}

/** Agents: the active team (only the one filtered by, if any), and anyone else the range's figures name. */
function agentsSection(
  facts: Facts,
  measured: Measured[],
  names: Map<string, string>,
  agent: string | undefined,
  { bucket }: Frame,
) {
  const repliesOf = new Map(facts.replies.map((r) => [r.user_id, r.n]));
  const solvedOf = new Map<string, number>();
  for (const t of facts.tickets) {
    if (bucket(t.solved_bucket) !== undefined && t.assignee_id) {
      solvedOf.set(t.assignee_id, (solvedOf.get(t.assignee_id) ?? 0) + 1);
    }
  }
  const csatOf = new Map(agentScores(facts).map((r) => [r.agent_id, r]));
  const named = new Set([...repliesOf.keys(), ...solvedOf.keys(), ...csatOf.keys()]);
  const byAssignee = groupBy(measured, (m) => m.assignee ?? undefined);
  return facts.members
    .filter((m) => (m.status === "active" && (!agent || m.id === agent)) || named.has(m.id))
    .map((m): ReportAnswer["agents"][number] => {
      const fr = firstResponses(byAssignee.get(m.id) ?? [], () => true);
      const scores = csatOf.get(m.id) ?? { good: 0, bad: 0 };
      return {
        agent_id: m.id,
        name: names.get(m.id) ?? "",
        email: m.email,
        replies: repliesOf.get(m.id) ?? 0,
        solved: solvedOf.get(m.id) ?? 0,
        median_first_response_minutes: fr.median_minutes,
        median_first_response_business_minutes: fr.median_business_minutes,
        csat: { good: scores.good, bad: scores.bad, score: csatScore(scores.good, scores.bad) },
      };
    })
    .sort((a, b) => b.solved - a.solved || b.replies - a.replies || a.name.localeCompare(b.name));
}

/** Tags, most used first, with their counts per period. */
function tagsSection(facts: Facts, { periods, bucket }: Frame): ReportAnswer["tags"] {
  const rows = new Map<string, number[]>();
  for (const t of facts.tickets) {
    const i = bucket(t.created_bucket);
    if (i === undefined) continue;
    for (const tag of t.tags) {
      let counts = rows.get(tag);
      if (!counts) {
        counts = periods.map(() => 0);
        rows.set(tag, counts);
      }
      counts[i] = (counts[i] ?? 0) + 1;
    }
  }
  return [...rows.entries()]
    .map(([tag, counts]) => ({ tag, total: counts.reduce((a, b) => a + b, 0), counts }))
    .sort((a, b) => b.total - a.total || a.tag.localeCompare(b.tag));
}

function heatmap(rows: { dow: number; hour: number; n: number }[]): number[][] {
  const map = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => 0));
  for (const r of rows) {
    const day = map[r.dow];
    if (day) day[r.hour] = (day[r.hour] ?? 0) + r.n;
  }
  return map;
}

export async function buildReport(ctx: Ctx, q: ReportQuery): Promise<ReportAnswer> {
  const { periods, indexOfDay } = periodsOf(q.from, q.to, q.group);
  const span = await spanOf(
    ctx.db,
    ctx.orgId,
    q,
    periods.map((p) => p.start),
  );
  const facts = await readFacts(ctx, q, span);
  const frame: Frame = {
    periods,
    slot: (day) => (day === null ? undefined : indexOfDay.get(day)),
    bucket: (b) => (b !== null && b >= 1 && b <= periods.length ? b - 1 : undefined),
  };
  const names = new Map(facts.members.map((m) => [m.id, `${m.first_name} ${m.last_name}`.trim()]));
  const measured = measure(facts, span.timezone, frame);
  return {
    from: q.from,
    to: q.to,
    group: q.group,
    timezone: span.timezone,
    periods,
    volume: volumeSection(facts, frame),
    speed: speedSection(measured, frame),
    sla: slaSection(facts),
    ...satisfactionAndAssistant(facts, names, frame),
    agents: agentsSection(facts, measured, names, q.agent, frame),
    tags: tagsSection(facts, frame),
    busiest_hours: {
      tickets: heatmap(
        facts.tickets.flatMap((t) =>
          t.created_dow === null || t.created_hour === null ? [] : [{ dow: t.created_dow, hour: t.created_hour, n: 1 }],
        ),
      ),
      chats: heatmap(facts.chatHours),
    },
  };
}

/** Tickets per page of the CSV: each page is one short transaction, so a long download holds no transaction open. */
export const EXPORT_PAGE = 1000;

/** Runs a function in a fresh tenant transaction of the request (the route's inTenant). */
export type InTenant = <T>(fn: (ctx: Ctx) => Promise<T>) => Promise<T>;

const iso = (v: Date | string | null) => (v === null ? "" : asDate(v).toISOString());

/** Met (yes), missed (no: late, or not done and past due at `at`), or nothing to say yet (no target, not yet due). */
function metCell(due: Date | string | null, done: Date | string | null, at: Date): string {
  if (due === null) return "";
  const dueAt = asDate(due);
  if (done !== null) return asDate(done) <= dueAt ? "yes" : "no";
  return dueAt < at ? "no" : "";
}

/**
 * The per-ticket CSV of the range (docs/reports.md), read a page at a time in keyset order: the first page is read
 * before anything is sent (so a refusal is an ordinary error answer), the rest as the client takes them.
 */
export async function ticketsCsv(run: InTenant, q: ReportQuery): Promise<AsyncIterable<string>> {
  const f = filterOf(q);
  const at = now();
  const first = await run(async (ctx) => {
    const span = await spanOf(ctx.db, ctx.orgId, q);
    const config = await loadConfig(ctx);
    return { span, window: config.window, lines: await pageLines(ctx, span, config.window, null) };
  });
  const { span, window } = first;

  async function pageLines(ctx: Ctx, s: ReportSpan, w: OpeningWindow, after: ExportCursor | null) {
    const rows = await ticketExportPage(ctx.db, ctx.orgId, f, s, after, EXPORT_PAGE);
    const ratings = await ratingsOfTickets(
      ctx.db,
      ctx.orgId,
      rows.map((r) => r.id),
    );
    return { rows, text: linesOf(rows, ratings, w, s.timezone, at) };
  }

  return (async function* lines() {
    yield csvLine(TICKET_CSV_COLUMNS);
    let page = first.lines;
    for (;;) {
      if (page.text) yield page.text;
      const last = page.rows.at(-1);
      if (page.rows.length < EXPORT_PAGE || !last) return;
      const cursor = { createdAt: last.created_key, number: last.ticket_number };
      page = await run((ctx) => pageLines(ctx, span, window, cursor));
    }
  })();
}

function linesOf(
  rows: TicketExportRow[],
  ratings: Map<string, string>,
  window: OpeningWindow,
  timezone: string,
  at: Date,
): string {
  const instants = rows.flatMap((r) =>
    [r.created_at, r.first_responded_at, r.solved_at].flatMap((v) => (v === null ? [] : [asDate(v)])),
  );
  const business = businessCounter(window, timezone, instants);
  const minutes = (from: Date | string, to: Date | string | null) =>
    to === null ? "" : String(round1((asDate(to).getTime() - asDate(from).getTime()) / MINUTE));
  const businessMinutes = (from: Date | string, to: Date | string | null) =>
    to === null ? "" : String(round1(business(asDate(from), asDate(to))));
  let text = "";
  for (const r of rows) {
    text += csvLine([
      r.ticket_number,
      r.subject,
      r.source,
      r.status,
      r.priority,
      r.requester_email,
      r.assignee_email ?? "",
      r.tags.join(", "),
      iso(r.created_at),
      iso(r.first_responded_at),
      minutes(r.created_at, r.first_responded_at),
      businessMinutes(r.created_at, r.first_responded_at),
      iso(r.solved_at),
      minutes(r.created_at, r.solved_at),
      businessMinutes(r.created_at, r.solved_at),
      r.reopened_count,
      metCell(r.first_response_due_at, r.first_responded_at, at),
      metCell(r.resolution_due_at, r.solved_at, at),
      ratings.get(r.id) ?? "",
    ]);
  }
  return text;
}
