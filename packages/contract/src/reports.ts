import { z } from "zod";
import { csatScoreSchema } from "./csat.ts";
import { defineRoute } from "./routes.ts";
import { TICKET_PRIORITIES, TICKET_SOURCES } from "./tickets.ts";

/**
 * Reports (issue 31, docs/reports.md): how fast and how well the team answers, for agents and admins. Every figure is
 * for a range of days in the organization's time zone (Settings), grouped by day, week (Monday to Sunday) or month,
 * and obeys the filters. The full definitions are in docs/reports.md; each schema below says in short how its figure is
 * counted (the screen's "how is this counted").
 *
 * Filters apply to tickets by what they are now (channel, assignee, priority, tags). Chats have no priority or tags:
 * with a priority or tag filter, or a channel other than chat, the chat figures (the assistant, chat ratings, the
 * chats row of the busiest hours) count nothing; the agent filter keeps the chats assigned to that agent.
 *
 * Minutes are rounded to one decimal. Business minutes are counted in the business hours SLA uses (Settings -> SLA),
 * in the organization's time zone, daylight-saving changes included. Medians and 90th percentiles are interpolated
 * between the two nearest values (as PostgreSQL's percentile_cont), null when nothing was counted. Shares are percents
 * rounded to one decimal, null when nothing was counted.
 */

export const REPORT_GROUPS = ["day", "week", "month"] as const;
export type ReportGroup = (typeof REPORT_GROUPS)[number];
/** The longest range one report covers, in days. */
export const REPORT_RANGE_MAX_DAYS = 366;
/** The most breached tickets the SLA section lists (breached_total counts them all). */
export const REPORT_BREACHED_MAX = 100;
/** The most unanswered questions the assistant section lists. */
export const REPORT_UNANSWERED_MAX = 10;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = (name: string) =>
  z
    .string({ error: `${name} must be a date such as 2026-11-29` })
    .trim()
    .refine(
      (s) =>
        DAY.test(s) &&
        !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) &&
        new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
      `${name} must be a date such as 2026-11-29`,
    );

/** The filters every report endpoint takes (the section CSVs and the ticket CSV too). */
export const reportQuery = z
  .object({
    /** The first day of the range (in the organization's time zone), included. */
    from: day("from"),
    /** The last day of the range, included. */
    to: day("to"),
    group: z.enum(REPORT_GROUPS, { error: "group must be day, week or month" }).default("day"),
    /** Only tickets that came in on this channel. */
    channel: z.enum(TICKET_SOURCES, { error: `channel must be one of ${TICKET_SOURCES.join(", ")}` }).optional(),
    /** Only tickets assigned to this member (and chats assigned to them). */
    agent: z.uuid({ error: "agent must be a member's id" }).optional(),
    priority: z
      .enum(TICKET_PRIORITIES, { error: `priority must be one of ${TICKET_PRIORITIES.join(", ")}` })
      .optional(),
    /** Only tickets with this tag. */
    tag: z.string().trim().min(1, "tag must not be empty").max(100, "tag is too long").optional(),
  })
  .refine((q) => q.from <= q.to, { message: "from must be on or before to", path: ["from"] })
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < REPORT_RANGE_MAX_DAYS, {
    message: `A report covers at most ${REPORT_RANGE_MAX_DAYS} days`,
    path: ["to"],
  });
export type ReportQuery = z.input<typeof reportQuery>;

/** One period of the range: its first and last day (the first and last periods are cut to the range). */
const periodSchema = z.object({ start: z.string(), end: z.string() });
export type ReportPeriod = z.infer<typeof periodSchema>;

/** Tickets per channel, and all of them. */
const channelCounts = z.object({
  web: z.number().int(),
  email: z.number().int(),
  chat: z.number().int(),
  portal: z.number().int(),
  api: z.number().int(),
  total: z.number().int(),
});
export type ChannelCounts = z.infer<typeof channelCounts>;

/**
 * Volume per period: tickets created in it; tickets solved in it (their last change to solved, so a ticket reopened
 * and solved again counts once, in the period of its last solve); and the open backlog at the period's end (tickets
 * open or pending at that moment, as their status history says).
 */
const volumeRow = z.object({
  period: z.string(),
  created: channelCounts,
  solved: channelCounts,
  backlog: z.number().int(),
});

/**
 * Times in minutes over a set of tickets. count: tickets counted; calendar: minutes on the clock; business: only the
 * minutes inside business hours.
 */
const timeStats = z.object({
  count: z.number().int(),
  median_minutes: z.number().nullable(),
  p90_minutes: z.number().nullable(),
  median_business_minutes: z.number().nullable(),
  p90_business_minutes: z.number().nullable(),
});
export type TimeStats = z.infer<typeof timeStats>;

/**
 * first_response: from the ticket's creation to the first public reply by a member of the team (not an automatic
 * reply, not an internal note, not the assistant, not an API key), counted in the period of that reply. resolution:
 * from creation to the last change to solved, counted in the period of that solve (tickets solved now).
 */
const speedRow = z.object({ period: z.string(), first_response: timeStats, resolution: timeStats });

/** Of the tickets created in the range with a target: met on time, missed (late, or not yet done and past due). */
const slaShare = z.object({ met: z.number().int(), missed: z.number().int(), share: z.number().nullable() });
const slaRow = z.object({
  priority: z.enum(TICKET_PRIORITIES),
  first_response: slaShare,
  resolution: slaShare,
});
/** A ticket created in the range that missed a target (kind), oldest due time first. */
const breachedTicket = z.object({
  id: z.string(),
  number: z.number().int(),
  subject: z.string(),
  priority: z.enum(TICKET_PRIORITIES),
  kind: z.enum(["first_response", "resolution"]),
  due_at: z.string(),
});

/**
 * CSAT: surveys of tickets solved in the period (sent), those answered, good and bad; score = good / answered, in
 * percent (csatScore); response_rate = answered / sent. Chats' "How did we do?" answers count by the chat's start and
 * have no "sent" (a chat is asked when it ends, in the widget): they add to good and bad only.
 */
const satisfactionCounts = csatScoreSchema.extend({
  sent: z.number().int(),
  answered: z.number().int(),
  response_rate: z.number().nullable(),
});
const satisfactionRow = satisfactionCounts.extend({ period: z.string() });
const agentScore = csatScoreSchema.extend({ agent_id: z.string().nullable(), name: z.string() });

/**
 * Chats started in the period: resolved_by_ai (closed with the assistant's answers alone: never handed off, no person
 * replied), handed_off (the assistant passed it to a person), handoff_rate = handed_off / chats.
 */
const assistantCounts = z.object({
  chats: z.number().int(),
  resolved_by_ai: z.number().int(),
  handed_off: z.number().int(),
  handoff_rate: z.number().nullable(),
});
const assistantRow = assistantCounts.extend({ period: z.string() });
/** A question the assistant could not answer (handed off, low confidence or thumbs down), grouped by wording. */
const unansweredQuestion = z.object({ question: z.string(), count: z.number().int(), handed_off: z.number().int() });

/**
 * Per member of the team: replies (public replies written in the range), solved (tickets assigned to them solved in
 * the range), first response (of tickets assigned to them, first answered in the range) and CSAT (surveys of their
 * solves in the range; the agent credited is the assignee at the solve).
 */
const agentRow = z.object({
  agent_id: z.string(),
  name: z.string(),
  email: z.string(),
  replies: z.number().int(),
  solved: z.number().int(),
  median_first_response_minutes: z.number().nullable(),
  median_first_response_business_minutes: z.number().nullable(),
  csat: csatScoreSchema,
});

/** Tickets created in the range per tag (a ticket counts once under each of its tags); counts: per period. */
const tagRow = z.object({ tag: z.string(), total: z.number().int(), counts: z.array(z.number().int()) });

/**
 * New tickets and chats started in the range by weekday and hour of the day, in the organization's time zone:
 * [weekday][hour], weekday 0 is Sunday (as WEEKDAY_NAMES in sla.ts), hour 0 to 23.
 */
const heatmap = z.array(z.array(z.number().int()));

export const reportAnswer = z.object({
  from: z.string(),
  to: z.string(),
  group: z.enum(REPORT_GROUPS),
  /** The organization's time zone, which days, periods and hours are read in. */
  timezone: z.string(),
  periods: z.array(periodSchema),
  volume: z.object({ totals: z.object({ created: channelCounts, solved: channelCounts }), rows: z.array(volumeRow) }),
  speed: z.object({ first_response: timeStats, resolution: timeStats, rows: z.array(speedRow) }),
  sla: z.object({
    priorities: z.array(slaRow),
    breached: z.array(breachedTicket),
    breached_total: z.number().int(),
  }),
  satisfaction: z.object({
    overall: satisfactionCounts,
    rows: z.array(satisfactionRow),
    agents: z.array(agentScore),
    /** Chats the assistant resolved alone. */
    ai: csatScoreSchema,
    /** Tickets and chats a person resolved. */
    people: csatScoreSchema,
  }),
  assistant: assistantCounts.extend({
    rows: z.array(assistantRow),
    /** Questions asked in the range, most asked first (at most REPORT_UNANSWERED_MAX); the dates are their only filter. */
    unanswered: z.array(unansweredQuestion),
  }),
  agents: z.array(agentRow),
  tags: z.array(tagRow),
  busiest_hours: z.object({ tickets: heatmap, chats: heatmap }),
});
export type ReportAnswer = z.infer<typeof reportAnswer>;

/** The sections that download as CSV: GET /api/reports/{section}.csv with the report's query. */
export const REPORT_SECTIONS = [
  "volume",
  "speed",
  "sla",
  "satisfaction",
  "assistant",
  "agents",
  "tags",
  "busiest_hours",
] as const;
export type ReportSection = (typeof REPORT_SECTIONS)[number];

/** The per-ticket CSV's columns, in order (GET /api/reports/tickets.csv). */
export const TICKET_CSV_COLUMNS = [
  "ticket_number",
  "subject",
  "channel",
  "status",
  "priority",
  "requester_email",
  "assignee_email",
  "tags",
  "created_at",
  "first_response_at",
  "first_response_minutes",
  "first_response_business_minutes",
  "solved_at",
  "resolution_minutes",
  "resolution_business_minutes",
  "reopened_count",
  "sla_first_response_met",
  "sla_resolution_met",
  "csat",
] as const;

/** A table as the screen's table view shows it and the section's CSV holds it: header row, then text cells. */
export interface ReportTable {
  columns: string[];
  rows: string[][];
}

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const num = (v: number | null) => (v === null ? "" : String(v));
const pct = (v: number | null) => (v === null ? "" : `${v}%`);
const score = (s: { good: number; bad: number; score: number | null }) => [String(s.good), String(s.bad), pct(s.score)];
const times = (t: TimeStats) => [
  String(t.count),
  num(t.median_minutes),
  num(t.p90_minutes),
  num(t.median_business_minutes),
  num(t.p90_business_minutes),
];
const timeColumns = (what: string) => [
  `${what}: tickets`,
  `${what}: median (min)`,
  `${what}: 90th percentile (min)`,
  `${what}: median (business min)`,
  `${what}: 90th percentile (business min)`,
];
const channels = (c: ChannelCounts) => [...TICKET_SOURCES.map((s) => String(c[s])), String(c.total)];
const CHANNEL_NAMES: Record<(typeof TICKET_SOURCES)[number], string> = {
  web: "web form",
  email: "email",
  chat: "chat",
  portal: "portal",
  api: "API",
};

/**
 * Every section's table, the one source of both the screen's table view and the CSV download, so they never differ.
 * Periods are named by their first day (YYYY-MM-DD).
 */
export function reportTable(report: ReportAnswer, section: ReportSection): ReportTable {
  switch (section) {
    case "volume":
      return {
        columns: [
          "Period",
          ...TICKET_SOURCES.map((s) => `Created: ${CHANNEL_NAMES[s]}`),
          "Created",
          ...TICKET_SOURCES.map((s) => `Solved: ${CHANNEL_NAMES[s]}`),
          "Solved",
          "Open at end",
        ],
        rows: report.volume.rows.map((r) => [
          r.period,
          ...channels(r.created),
          ...channels(r.solved),
          String(r.backlog),
        ]),
      };
    case "speed":
      return {
        columns: ["Period", ...timeColumns("First response"), ...timeColumns("Resolution")],
        rows: report.speed.rows.map((r) => [r.period, ...times(r.first_response), ...times(r.resolution)]),
      };
    case "sla":
      return {
        columns: [
          "Priority",
          "First response met",
          "First response missed",
          "First response met (%)",
          "Resolution met",
          "Resolution missed",
          "Resolution met (%)",
        ],
        rows: report.sla.priorities.map((r) => [
          r.priority,
          String(r.first_response.met),
          String(r.first_response.missed),
          pct(r.first_response.share),
          String(r.resolution.met),
          String(r.resolution.missed),
          pct(r.resolution.share),
        ]),
      };
    case "satisfaction":
      return {
        columns: ["Period", "Good", "Bad", "CSAT", "Surveys sent", "Answered", "Response rate"],
        rows: report.satisfaction.rows.map((r) => [
          r.period,
          ...score(r),
          String(r.sent),
          String(r.answered),
          pct(r.response_rate),
        ]),
      };
    case "assistant":
      return {
        columns: ["Period", "Chats", "Resolved by the assistant", "Handed off", "Hand-off rate"],
        rows: report.assistant.rows.map((r) => [
          r.period,
          String(r.chats),
          String(r.resolved_by_ai),
          String(r.handed_off),
          pct(r.handoff_rate),
        ]),
      };
    case "agents":
      return {
        columns: [
          "Agent",
          "Email",
          "Replies",
          "Solved",
          "Median first response (min)",
          "Median first response (business min)",
          "CSAT good",
          "CSAT bad",
          "CSAT",
        ],
        rows: report.agents.map((a) => [
          a.name,
          a.email,
          String(a.replies),
          String(a.solved),
          num(a.median_first_response_minutes),
          num(a.median_first_response_business_minutes),
          ...score(a.csat),
        ]),
      };
    case "tags":
      return {
        columns: ["Tag", "Tickets", ...report.periods.map((p) => p.start)],
        rows: report.tags.map((t) => [t.tag, String(t.total), ...t.counts.map(String)]),
      };
    case "busiest_hours":
      return {
        columns: ["Kind", "Weekday", ...Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, "0")}:00`)],
        rows: (["tickets", "chats"] as const).flatMap((kind) =>
          report.busiest_hours[kind].map((hours, weekday) => [
            kind === "tickets" ? "New tickets" : "Chats",
            WEEKDAYS[weekday] ?? "",
            ...hours.map(String),
          ]),
        ),
      };
  }
}

// Routes -------------------------------------------------------------------------------------------------------------

const tags = ["reports"];
const csvAnswer = z.string().describe("CSV (text/csv)");

/** A section's CSV route (GET /api/reports/{section}.csv): one route per section, each a static path. */
const sectionCsvRoute = (section: ReportSection) =>
  defineRoute({
    method: "GET",
    path: `/api/reports/${section}.csv`,
    summary: `The ${section.replace("_", " ")} section as CSV, as its table shows it`,
    tags,
    access: "authenticated",
    query: reportQuery,
    answers: { 200: csvAnswer },
  });

/**
 * Reports (staff only, agents and admins: customers' and API keys' tokens are refused): every section in one answer,
 * each section as CSV, and one row per ticket.
 */
export const reportsApi = {
  report: defineRoute({
    method: "GET",
    path: "/api/reports",
    summary: "Every report section for a range of days, grouped by day, week or month, with filters",
    tags,
    access: "authenticated",
    query: reportQuery,
    answers: { 200: reportAnswer },
  }),
  ticketsCsv: defineRoute({
    method: "GET",
    path: "/api/reports/tickets.csv",
    summary: "One row per ticket created in the range, with every figure (streamed CSV)",
    tags,
    access: "authenticated",
    query: reportQuery,
    answers: { 200: csvAnswer },
  }),
  /** Each section's CSV, by section. */
  sectionCsv: sectionCsvRoute,
};
