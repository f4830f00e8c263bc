import { csatScore } from "@cove/contract/csat.ts";
import {
  type ChannelCounts,
  REPORT_BREACHED_MAX,
  REPORT_UNANSWERED_MAX,
  type ReportAnswer,
  type ReportPeriod,
  type reportQuery,
  TICKET_CSV_COLUMNS,
  type TimeStats,
} from "@cove/contract/reports.ts";
import { TICKET_PRIORITIES, TICKET_SOURCES, type TicketPriority } from "@cove/contract/tickets.ts";
import { sql } from "drizzle-orm";
import type { z } from "zod";
import type { RequestTx } from "../../platform/auth.ts";
import { now } from "../../platform/clock.ts";
import { csvLine } from "../../platform/csv.ts";
import { type Queryable, queryRows } from "../../platform/db.ts";
import type { Ctx } from "../../platform/tenancy.ts";
import { groupQuestions, unansweredBetween } from "../ai/index.ts";
import { chatsByDay, chatsByHour } from "../chat/index.ts";
import { ratingsOfTickets, surveysByDay } from "../csat/index.ts";
import {
  backlogParts,
  type ExportCursor,
  filteredTicketIds,
  type ReportSpan,
  repliesByMember,
  type TicketExportRow,
  type TicketFigure,
  type TicketReportFilter,
  ticketExportPage,
  ticketFigures,
  ticketSubjects,
} from "../tickets/index.ts";
import { percent, periodsOf, round1 } from "./reports.periods.ts";

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

/**
 * Everything a report is worked out from, read through the owning modules in the request's transaction (one statement
 * after another: a transaction runs them one at a time anyway).
 */
async function readFacts(ctx: Ctx, q: ReportQuery, span: ReportSpan & { bounds: string[] }) {
  const { db, orgId } = ctx;
  const f = filterOf(q);
  const filtered = Boolean(q.channel || q.agent || q.priority || q.tag);
  const chats = chatsCount(q);
  const figures = await ticketFigures(db, orgId, f, span, span.bounds, now(), REPORT_BREACHED_MAX);
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
  const chatSpan = { orgId, agent: q.agent, start: span.start, end: span.end, timezone: span.timezone };
  const chatDays = chats ? await chatsByDay(db, chatSpan) : [];
  const chatHours = chats ? await chatsByHour(db, chatSpan) : [];
  const asked = await unansweredBetween(db, orgId, span.start, span.end);
  const members = await queryRows<{ id: string; first_name: string; last_name: string; email: string; status: string }>(
    db,
    sql`select id, first_name, last_name, email, status from users where organization_id = ${orgId}`,
  );
  const breached = figures.find((r) => r.kind === "breached");
  const subjects = await ticketSubjects(
    db,
    orgId,
    (breached?.list ?? []).map((b) => b.id),
  );
  return { figures, backlog, replies, surveys, chatDays, chatHours, asked, members, subjects };
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
  for (const r of facts.figures) {
    if (r.kind !== "created" && r.kind !== "solved") continue;
    const counts = (r.kind === "created" ? created : solved)[bucket(r.a) ?? -1];
    const source = TICKET_SOURCES.find((c) => c === r.key);
    if (!counts || !source) continue;
    counts[source] += r.n;
    counts.total += r.n;
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

/** Times as the report shows them, from a group the database counted (none: no such group, nothing counted). */
function timesOf(r: TicketFigure | undefined): TimeStats {
  const r1 = (v: number | null | undefined) => (v === null || v === undefined ? null : round1(v));
  return {
    count: r?.n ?? 0,
    median_minutes: r1(r?.m50),
    p90_minutes: r1(r?.m90),
    median_business_minutes: r1(r?.b50),
    p90_business_minutes: r1(r?.b90),
  };
}

/** The figures of a kind by their period (undefined: the whole range), and by key. */
function figuresOf(facts: Facts, kind: TicketFigure["kind"], { bucket }: Frame) {
  const byPeriod = new Map<number | undefined, TicketFigure>();
  const byKey = new Map<string, TicketFigure>();
  for (const r of facts.figures) {
    if (r.kind !== kind) continue;
    if (r.key !== null) byKey.set(r.key, r);
    else if (r.a === null) byPeriod.set(undefined, r);
    else {
      const i = bucket(r.a);
      if (i !== undefined) byPeriod.set(i, r);
    }
  }
  return { byPeriod, byKey };
}

function speedSection(facts: Facts, frame: Frame): ReportAnswer["speed"] {
  const responded = figuresOf(facts, "first_response", frame).byPeriod;
  const solved = figuresOf(facts, "resolution", frame).byPeriod;
  return {
    first_response: timesOf(responded.get(undefined)),
    resolution: timesOf(solved.get(undefined)),
    rows: frame.periods.map((p, i) => ({
      period: p.start,
      first_response: timesOf(responded.get(i)),
      resolution: timesOf(solved.get(i)),
    })),
  };
}

function slaSection(facts: Facts, frame: Frame): ReportAnswer["sla"] {
  const share = (met: number | null | undefined, missed: number | null | undefined) => ({
    met: met ?? 0,
    missed: missed ?? 0,
    share: percent(met ?? 0, (met ?? 0) + (missed ?? 0)),
  });
  const counts = figuresOf(facts, "sla", frame).byKey;
  const breached = facts.figures.find((r) => r.kind === "breached");
  return {
    priorities: TICKET_PRIORITIES.map((priority: TicketPriority) => {
      const c = counts.get(priority);
      return { priority, first_response: share(c?.m50, c?.m90), resolution: share(c?.b50, c?.b90) };
    }),
    breached: (breached?.list ?? []).map((b) => ({
      id: b.id,
      number: b.number,
      subject: facts.subjects.get(b.id) ?? "",
      priority: b.priority,
      kind: b.kind,
      due_at: new Date(b.due).toISOString(),
    })),
    // Every due time missed is one priority's first-response or resolution miss (ticketFigures).
    breached_total: [...counts.values()].reduce((sum, c) => sum + (c.m90 ?? 0) + (c.b90 ?? 0), 0),
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
function agentsSection(facts: Facts, names: Map<string, string>, agent: string | undefined, frame: Frame) {
  const repliesOf = new Map(facts.replies.map((r) => [r.user_id, r.n]));
  const solvedOf = figuresOf(facts, "solved_agent", frame).byKey;
  const responsesOf = figuresOf(facts, "first_response_agent", frame).byKey;
  const csatOf = new Map(agentScores(facts).map((r) => [r.agent_id, r]));
  const named = new Set([...repliesOf.keys(), ...solvedOf.keys(), ...csatOf.keys()]);
  return facts.members
    .filter((m) => (m.status === "active" && (!agent || m.id === agent)) || named.has(m.id))
    .map((m): ReportAnswer["agents"][number] => {
      const fr = timesOf(responsesOf.get(m.id));
      const scores = csatOf.get(m.id) ?? { good: 0, bad: 0 };
      return {
        agent_id: m.id,
        name: names.get(m.id) ?? "",
        email: m.email,
        replies: repliesOf.get(m.id) ?? 0,
        solved: solvedOf.get(m.id)?.n ?? 0,
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
  for (const r of facts.figures) {
    const i = bucket(r.a);
    if (r.kind !== "tag" || r.key === null || i === undefined) continue;
    let counts = rows.get(r.key);
    if (!counts) {
      counts = periods.map(() => 0);
      rows.set(r.key, counts);
    }
    counts[i] = (counts[i] ?? 0) + r.n;
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

/**
 * The report, and the last instant it holds at without a write (null: until the data changes): a due time of the
 * range's tickets not done yet is missed just after it passes, which changes the SLA section (ticketFigures next_due).
 */
export async function buildReport(ctx: Ctx, q: ReportQuery): Promise<{ answer: ReportAnswer; until: Date | null }> {
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
  const nextDue = facts.figures.find((r) => r.kind === "next_due")?.m50 ?? null;
  const answer: ReportAnswer = {
    from: q.from,
    to: q.to,
    group: q.group,
    timezone: span.timezone,
    periods,
    volume: volumeSection(facts, frame),
    speed: speedSection(facts, frame),
    sla: slaSection(facts, frame),
    ...satisfactionAndAssistant(facts, names, frame),
    agents: agentsSection(facts, names, q.agent, frame),
    tags: tagsSection(facts, frame),
    busiest_hours: {
      tickets: heatmap(
        facts.figures.flatMap((r) =>
          r.kind === "hour" && r.a !== null && r.b !== null ? [{ dow: r.a, hour: r.b, n: r.n }] : [],
        ),
      ),
      chats: heatmap(facts.chatHours),
    },
  };
  return { answer, until: nextDue === null ? null : new Date(nextDue) };
}

/** Tickets per page of the CSV: each page is one short transaction, so a long download holds no transaction open. */
export const EXPORT_PAGE = 1000;

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
export async function ticketsCsv(run: RequestTx<Ctx>, q: ReportQuery): Promise<AsyncIterable<string>> {
  const f = filterOf(q);
  const at = now();
  const first = await run(async (ctx) => {
    const span = await spanOf(ctx.db, ctx.orgId, q);
    return { span, lines: await pageLines(ctx, span, null) };
  });
  const { span } = first;

  async function pageLines(ctx: Ctx, s: ReportSpan, after: ExportCursor | null) {
    const rows = await ticketExportPage(ctx.db, ctx.orgId, f, s, after, EXPORT_PAGE);
    const ratings = await ratingsOfTickets(
      ctx.db,
      ctx.orgId,
      rows.map((r) => r.id),
    );
    return { rows, text: linesOf(rows, ratings, at) };
  }

  return (async function* lines() {
    yield csvLine(TICKET_CSV_COLUMNS);
    let page = first.lines;
    for (;;) {
      if (page.text) yield page.text;
      const last = page.rows.at(-1);
      if (page.rows.length < EXPORT_PAGE || !last) return;
      const cursor = { createdAt: last.created_key, number: last.ticket_number };
      page = await run((ctx) => pageLines(ctx, span, cursor));
    }
  })();
}

function linesOf(rows: TicketExportRow[], ratings: Map<string, string>, at: Date): string {
  const minutes = (from: Date | string, to: Date | string | null) =>
    to === null ? "" : String(round1((asDate(to).getTime() - asDate(from).getTime()) / MINUTE));
  const stored = (value: number | null) => (value === null ? "" : String(round1(value)));
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
      stored(r.first_response_business_minutes),
      iso(r.solved_at),
      minutes(r.created_at, r.solved_at),
      stored(r.resolution_business_minutes),
      r.reopened_count,
      metCell(r.first_response_due_at, r.first_responded_at, at),
      metCell(r.resolution_due_at, r.solved_at, at),
      ratings.get(r.id) ?? "",
    ]);
  }
  return text;
}
