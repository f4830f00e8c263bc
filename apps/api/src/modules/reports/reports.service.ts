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
import { ratingsOfTickets, surveysByAgent, surveysByDay } from "../csat/csat.reports.ts";
import {
  backlogParts,
  type ExportCursor,
  filteredTicketIds,
  type ReportSpan,
  repliesByMember,
  slaFigures,
  solvedByAssignee,
  type TicketExportRow,
  type TicketReportFilter,
  tagsByDay,
  ticketClocks,
  ticketExportPage,
  ticketsByHour,
  ticketVolume,
} from "../tickets/tickets.reports.ts";
import { percent, periodsOf, round1, timeStats } from "./reports.periods.ts";

/**
 * Reports (issue 31; every figure defined in docs/reports.md): one answer with every section, read through the owning
 * modules' report functions in the request's transaction, and the per-ticket CSV in pages.
 */

export type ReportQuery = z.output<typeof reportQuery>;

const MINUTE = 60_000;
const asDate = (v: Date | string) => (typeof v === "string" ? new Date(v) : v);

/** The range as instants: the first day's midnight and the midnight after the last day, in the organization's zone. */
async function spanOf(db: Queryable, orgId: string, q: Pick<ReportQuery, "from" | "to">): Promise<ReportSpan> {
  const [row] = await queryRows<{ timezone: string; start: Date | string; end: Date | string }>(
    db,
    sql`select timezone, (${q.from}::date::timestamp at time zone timezone) as start,
               ((${q.to}::date + 1)::timestamp at time zone timezone) as end
        from organizations where id = ${orgId}`,
  );
  if (!row) throw new Error("The organization of a signed-in request is missing");
  return { timezone: row.timezone, start: asDate(row.start).toISOString(), end: asDate(row.end).toISOString() };
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

/** Everything a report is worked out from, read through the owning modules in the request's transaction. */
async function readFacts(ctx: Ctx, q: ReportQuery, span: ReportSpan) {
  const { db, orgId } = ctx;
  const f = filterOf(q);
  const ids = filteredTicketIds(orgId, f);
  const chats = chatsCount(q);
  const [config, volume, backlog, clocks, sla, replies, solvedBy, tags, ticketHours] = await Promise.all([
    loadConfig(ctx),
    ticketVolume(db, orgId, f, span),
    backlogParts(db, orgId, f, span),
    ticketClocks(db, orgId, f, span),
    slaFigures(db, orgId, f, span, now(), REPORT_BREACHED_MAX),
    repliesByMember(db, orgId, f, span),
    solvedByAssignee(db, orgId, f, span),
    tagsByDay(db, orgId, f, span),
    ticketsByHour(db, orgId, f, span),
  ]);
  const [surveys, agentSurveys, chatDays, chatHours, asked, members] = await Promise.all([
    surveysByDay(db, orgId, ids, span.start, span.end, span.timezone),
    surveysByAgent(db, orgId, ids, span.start, span.end),
    chats ? chatsByDay(db, orgId, q.agent, span.start, span.end, span.timezone) : Promise.resolve([]),
    chats ? chatsByHour(db, orgId, q.agent, span.start, span.end, span.timezone) : Promise.resolve([]),
    unansweredBetween(db, orgId, span.start, span.end),
    queryRows<{ id: string; first_name: string; last_name: string; email: string; status: string }>(
      db,
      sql`select id, first_name, last_name, email, status from users where organization_id = ${orgId}`,
    ),
  ]);
  return {
    config,
    volume,
    backlog,
    clocks,
    sla,
    replies,
    solvedBy,
    tags,
    ticketHours,
    surveys,
    agentSurveys,
    chatDays,
    chatHours,
    asked,
    members,
  };
}
type Facts = Awaited<ReturnType<typeof readFacts>>;

/** The range's periods, and the period a day of it is in (undefined: outside the range, or no day). */
interface Frame {
  periods: ReportPeriod[];
  slot: (day: string | null) => number | undefined;
}

/** Volume per period, and the backlog at each period's end. */
function volumeSection(facts: Facts, { periods, slot }: Frame): ReportAnswer["volume"] {
  const created = periods.map(emptyChannels);
  const solved = periods.map(emptyChannels);
  for (const r of facts.volume) {
    const counts = (r.kind === "created" ? created : solved)[slot(r.day) ?? -1];
    if (!counts) continue;
    counts[r.source] += r.n;
    counts.total += r.n;
  }
  const backlogAt = (lastDay: string) => {
    let open = 0;
    for (const o of facts.backlog.open) if (o.created_day === null || o.created_day <= lastDay) open += o.n;
    for (const c of facts.backlog.changes) {
      const after = c.changed_day === null || c.changed_day > lastDay;
      const existed = c.created_day === null || c.created_day <= lastDay;
      if (after && existed) open -= c.delta;
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
      backlog: backlogAt(p.end),
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

function measure(facts: Facts, timezone: string, { slot }: Frame): Measured[] {
  const clocks = facts.clocks.map((c) => ({
    ...c,
    created: asDate(c.created_at),
    responded: c.first_responded_at === null ? null : asDate(c.first_responded_at),
    solvedAt: c.solved_at === null ? null : asDate(c.solved_at),
  }));
  const business = businessCounter(
    facts.config.window,
    timezone,
    clocks.flatMap((c) => [c.created, ...(c.responded ? [c.responded] : []), ...(c.solvedAt ? [c.solvedAt] : [])]),
  );
  return clocks.map((c) => ({
    assignee: c.assignee_id,
    respondedSlot: slot(c.responded_day),
    solvedSlot: slot(c.solved_day),
    fr: c.responded ? (c.responded.getTime() - c.created.getTime()) / MINUTE : null,
    frBusiness: c.responded ? business(c.created, c.responded) : null,
    res: c.solvedAt ? (c.solvedAt.getTime() - c.created.getTime()) / MINUTE : null,
    resBusiness: c.solvedAt ? business(c.created, c.solvedAt) : null,
  }));
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

function speedSection(measured: Measured[], { periods }: Frame): ReportAnswer["speed"] {
  return {
    first_response: firstResponses(measured, () => true),
    resolution: resolutions(measured, () => true),
    rows: periods.map((p, i) => ({
      period: p.start,
      first_response: firstResponses(measured, (m) => m.respondedSlot === i),
      resolution: resolutions(measured, (m) => m.solvedSlot === i),
    })),
  };
}

function slaSection(facts: Facts): ReportAnswer["sla"] {
  const share = (met: number, missed: number) => ({ met, missed, share: percent(met, met + missed) });
  return {
    priorities: TICKET_PRIORITIES.map((priority) => {
      const c = facts.sla.counts.find((r) => r.priority === priority);
      return {
        priority,
        first_response: share(c?.fr_met ?? 0, c?.fr_missed ?? 0),
        resolution: share(c?.res_met ?? 0, c?.res_missed ?? 0),
      };
    }),
    breached: facts.sla.breached.map((b) => ({ ...b, due_at: asDate(b.due_at).toISOString() })),
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
      agents: facts.agentSurveys
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
function agentsSection(facts: Facts, measured: Measured[], names: Map<string, string>, agent: string | undefined) {
  const repliesOf = new Map(facts.replies.map((r) => [r.user_id, r.n]));
  const solvedOf = new Map(facts.solvedBy.map((r) => [r.user_id, r.n]));
  const csatOf = new Map(facts.agentSurveys.map((r) => [r.agent_id, r]));
  const named = new Set([...repliesOf.keys(), ...solvedOf.keys(), ...csatOf.keys()]);
  return facts.members
    .filter((m) => (m.status === "active" && (!agent || m.id === agent)) || named.has(m.id))
    .map((m): ReportAnswer["agents"][number] => {
      const fr = firstResponses(measured, (x) => x.assignee === m.id);
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
function tagsSection(facts: Facts, { periods, slot }: Frame): ReportAnswer["tags"] {
  const rows = new Map<string, number[]>();
  for (const t of facts.tags) {
    const i = slot(t.day);
    if (i === undefined) continue;
    let counts = rows.get(t.tag);
    if (!counts) {
      counts = periods.map(() => 0);
      rows.set(t.tag, counts);
    }
    counts[i] = (counts[i] ?? 0) + t.n;
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
  const span = await spanOf(ctx.db, ctx.orgId, q);
  const facts = await readFacts(ctx, q, span);
  const { periods, indexOfDay } = periodsOf(q.from, q.to, q.group);
  const frame: Frame = { periods, slot: (day) => (day === null ? undefined : indexOfDay.get(day)) };
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
    agents: agentsSection(facts, measured, names, q.agent),
    tags: tagsSection(facts, frame),
    busiest_hours: { tickets: heatmap(facts.ticketHours), chats: heatmap(facts.chatHours) },
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
