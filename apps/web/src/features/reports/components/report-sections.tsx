import { type ReportAnswer, type ReportSection, reportTable } from "@cove/contract/reports.ts";
import { TICKET_SOURCES } from "@cove/contract/tickets.ts";
import { Link } from "react-router";
import { PRIORITY_LABELS } from "../../tickets/index.ts";
import { CategoryBars, colorAt, PeriodBars, PeriodLines } from "./charts.tsx";
import { DataTable } from "./data-table.tsx";
import { Figures } from "./figures.tsx";
import { Heatmap } from "./heatmap.tsx";
import { NoData, ReportCard } from "./report-card.tsx";
import {
  CHANNEL_LABELS,
  formatCount,
  formatInstant,
  formatMinutes,
  formatPercent,
  perGroup,
  periodLabel,
  toHours,
  WEEKDAYS,
} from "./report-format.ts";
import type { ReportParams } from "./report-params.ts";
import { formatRange } from "./report-range.ts";

interface SectionProps {
  report: ReportAnswer;
  params: ReportParams;
}

/**
 * The section's table view: the very table its CSV holds (the contract's reportTable), so the two never differ. Above
 * it, what its charts say when the range holds nothing for them (`noData`), so both views say the same.
 */
function SectionTable({
  report,
  section,
  title,
  noData = [],
  short,
}: {
  report: ReportAnswer;
  section: ReportSection;
  title: string;
  noData?: readonly (string | false)[];
  short?: Readonly<Record<string, string>>;
}) {
  const table = reportTable(report, section);
  const per =
    section === "sla" || section === "agents" || section === "busiest_hours" ? "" : ` ${perGroup(report.group)}`;
  return (
    <>
      {noData.filter(Boolean).map((text) => (
        <NoData key={String(text)}>{text}</NoData>
      ))}
      <DataTable
        caption={`${title}${per}, ${formatRange(report.from, report.to)}`}
        columns={table.columns}
        rows={table.rows}
        short={short}
      />
    </>
  );
}

const hours = (n: number) => `${n} h`;
const percent = (n: number) => `${n}%`;

/** Met / (met + missed) in percent, one decimal, as the API rounds its shares; null when nothing had a target. */
export function shareOf(met: number, missed: number): number | null {
  return met + missed === 0 ? null : Math.round((met / (met + missed)) * 1000) / 10;
}

export function VolumeSection({ report, params }: SectionProps) {
  const { totals, rows } = report.volume;
  const chartRows = rows.map((r) => ({
    period: periodLabel(r.period, report.group),
    ...Object.fromEntries(TICKET_SOURCES.map((s) => [s, r.created[s]])),
    created: r.created.total,
    solved: r.solved.total,
    backlog: r.backlog,
  }));
  const last = rows.at(-1);
  const noneCreated = totals.created.total === 0 && "No tickets created in this range.";
  return (
    <ReportCard
      section="volume"
      title="Volume"
      intro={`Tickets created and solved ${perGroup(report.group)}, by channel, and the open backlog.`}
      params={params}
      empty={totals.created.total === 0 && totals.solved.total === 0 && rows.every((r) => r.backlog === 0)}
      figures={
        <Figures
          items={[
            { label: "Created", value: formatCount(totals.created.total) },
            { label: "Solved", value: formatCount(totals.solved.total) },
            { label: "Open at the end", value: last ? formatCount(last.backlog) : "—" },
          ]}
        />
      }
      chart={
        <div className="space-y-6">
          <PeriodBars
            label={`Tickets created ${perGroup(report.group)}, by channel`}
            rows={chartRows}
            xKey="period"
            stacked
            series={TICKET_SOURCES.map((s) => ({ key: s, label: CHANNEL_LABELS[s] }))}
            noData={noneCreated}
          />
          <PeriodLines
            label={`Tickets created, solved, and open at the end of each ${report.group}`}
            rows={chartRows}
            xKey="period"
            series={[
              { key: "created", label: "Created" },
              { key: "solved", label: "Solved", color: colorAt(3) },
              { key: "backlog", label: "Open at the end" },
            ]}
          />
        </div>
      }
      table={<SectionTable report={report} section="volume" title="Volume" noData={[noneCreated]} />}
      howCounted={
        <>
          <p>
            <strong>Created</strong>: tickets that came in during the period, by the channel they came in on.
          </p>
          <p>
            <strong>Solved</strong>: tickets whose last change to solved was in the period. A ticket that was reopened
            and solved again counts once, when it was last solved.
          </p>
          <p>
            <strong>Open at the end</strong>: tickets that were open or pending when the period ended.
          </p>
        </>
      }
    />
  );
}

export function SpeedSection({ report, params }: SectionProps) {
  const { first_response: first, resolution, rows } = report.speed;
  const chartRows = rows.map((r) => ({
    period: periodLabel(r.period, report.group),
    first: toHours(r.first_response.median_minutes),
    firstBusiness: toHours(r.first_response.median_business_minutes),
    resolution: toHours(r.resolution.median_minutes),
    resolutionBusiness: toHours(r.resolution.median_business_minutes),
  }));
  const business = (m: number | null) => `In business hours: ${formatMinutes(m)}`;
  const noneAnswered = first.count === 0 && "No first responses in this range.";
  const noneSolved = resolution.count === 0 && "No tickets solved in this range.";
  return (
    <ReportCard
      section="speed"
      title="Speed"
      intro="How long customers wait for a first answer and for a solution."
      params={params}
      empty={first.count === 0 && resolution.count === 0}
      figures={
        <Figures
          items={[
            {
              label: "First response, median",
              value: formatMinutes(first.median_minutes),
              note: business(first.median_business_minutes),
            },
            {
              label: "First response, 90th percentile",
              value: formatMinutes(first.p90_minutes),
              note: business(first.p90_business_minutes),
            },
            {
              label: "Resolution, median",
              value: formatMinutes(resolution.median_minutes),
              note: business(resolution.median_business_minutes),
            },
            {
              label: "Resolution, 90th percentile",
              value: formatMinutes(resolution.p90_minutes),
              note: business(resolution.p90_business_minutes),
            },
          ]}
        />
      }
      chart={
        <div className="space-y-6">
          <PeriodLines
            label={`Median first response time ${perGroup(report.group)}, in hours`}
            rows={chartRows}
            xKey="period"
            format={hours}
            series={[
              { key: "first", label: "First response" },
              { key: "firstBusiness", label: "In business hours" },
            ]}
            height={200}
            noData={noneAnswered}
          />
          <PeriodLines
            label={`Median resolution time ${perGroup(report.group)}, in hours`}
            rows={chartRows}
            xKey="period"
            format={hours}
            series={[
              { key: "resolution", label: "Resolution", color: colorAt(2) },
              { key: "resolutionBusiness", label: "In business hours", color: colorAt(3) },
            ]}
            height={200}
            noData={noneSolved}
          />
        </div>
      }
      table={<SectionTable report={report} section="speed" title="Speed" noData={[noneAnswered, noneSolved]} />}
      howCounted={
        <>
          <p>
            <strong>First response</strong>: from when the ticket came in to the first public reply by a person on your
            team. Automatic replies, internal notes and the assistant's answers do not count. Counted in the period of
            that reply.
          </p>
          <p>
            <strong>Resolution</strong>: from when the ticket came in to its last change to solved, so a reopened ticket
            counts to its last solve. Counted in the period of that solve.
          </p>
          <p>
            <strong>Median</strong>: half the tickets were faster. <strong>90th percentile</strong>: nine in ten were
            faster. <strong>Business hours</strong> count only the time inside the hours your SLA uses (Automation,
            SLA), in your organization's time zone.
          </p>
        </>
      }
    />
  );
}

export function SlaSection({ report, params }: SectionProps) {
  const { priorities, breached, breached_total } = report.sla;
  const sum = (pick: (r: (typeof priorities)[number]) => { met: number; missed: number }) =>
    priorities.reduce((acc, r) => ({ met: acc.met + pick(r).met, missed: acc.missed + pick(r).missed }), {
      met: 0,
      missed: 0,
    });
  const first = sum((r) => r.first_response);
  const resolution = sum((r) => r.resolution);
  const chartRows = priorities.map((r) => ({
    priority: PRIORITY_LABELS[r.priority],
    first: r.first_response.share,
    resolution: r.resolution.share,
  }));
  return (
    <ReportCard
      section="sla"
      title="SLA"
      intro="How often the first-response and resolution targets were met, per priority."
      params={params}
      empty={first.met + first.missed + resolution.met + resolution.missed === 0}
      figures={
        <Figures
          items={[
            { label: "First response met", value: formatPercent(shareOf(first.met, first.missed)) },
            { label: "Resolution met", value: formatPercent(shareOf(resolution.met, resolution.missed)) },
            { label: "Breached tickets", value: formatCount(breached_total) },
          ]}
        />
      }
      chart={
        <PeriodBars
          label="Share of targets met per priority, in percent"
          rows={chartRows}
          xKey="priority"
          format={percent}
          series={[
            { key: "first", label: "First response met" },
            { key: "resolution", label: "Resolution met" },
          ]}
        />
      }
      table={<SectionTable report={report} section="sla" title="SLA targets met per priority" />}
      more={
        breached.length > 0 && (
          <div className="space-y-2">
            <h3 className="text-sm font-semibold text-slate-900">Breached tickets</h3>
            <DataTable
              caption={
                breached_total > breached.length
                  ? `The ${breached.length} longest overdue of ${formatCount(breached_total)} breached tickets`
                  : "Breached tickets, longest overdue first"
              }
              columns={["Ticket", "Priority", "Missed", "Was due"]}
              rows={breached.map((t) => [
                <Link key={t.id} to={`/tickets/${t.id}`} className="text-indigo-700 hover:text-indigo-600">
                  #{t.number} {t.subject}
                </Link>,
                PRIORITY_LABELS[t.priority],
                t.kind === "first_response" ? "First response" : "Resolution",
                formatInstant(t.due_at, report.timezone),
              ])}
            />
          </div>
        )
      }
      howCounted={
        <>
          <p>
            Tickets that came in during the range and had a target (set per priority in Automation, SLA).{" "}
            <strong>Met</strong>: answered or solved before the target's due time. <strong>Missed</strong>: answered or
            solved late, or not yet and already past due.
          </p>
          <p>Breached tickets are listed with the target they missed, the longest overdue first.</p>
        </>
      }
    />
  );
}

export function SatisfactionSection({ report, params }: SectionProps) {
  const { overall, rows, agents, ai, people } = report.satisfaction;
  const chartRows = rows.map((r) => ({
    period: periodLabel(r.period, report.group),
    score: r.score,
    rate: r.response_rate,
  }));
  const answers = (s: { good: number; bad: number }) => `${formatCount(s.good)} good · ${formatCount(s.bad)} bad`;
  return (
    <ReportCard
      section="satisfaction"
      title="Satisfaction"
      intro="What customers answered when asked how we did."
      params={params}
      empty={overall.sent === 0 && overall.good + overall.bad === 0}
      figures={
        <Figures
          items={[
            { label: "CSAT", value: formatPercent(overall.score), note: answers(overall) },
            {
              label: "Response rate",
              value: formatPercent(overall.response_rate),
              note: `${formatCount(overall.answered)} of ${formatCount(overall.sent)} surveys`,
            },
            { label: "Resolved by the assistant", value: formatPercent(ai.score), note: answers(ai) },
            { label: "Resolved by people", value: formatPercent(people.score), note: answers(people) },
          ]}
        />
      }
      chart={
        <PeriodLines
          label={`CSAT and survey response rate ${perGroup(report.group)}, in percent`}
          rows={chartRows}
          xKey="period"
          format={percent}
          series={[
            { key: "score", label: "CSAT" },
            { key: "rate", label: "Response rate" },
          ]}
        />
      }
      table={<SectionTable report={report} section="satisfaction" title="Satisfaction" />}
      more={
        agents.length > 0 && (
          <DataTable
            caption="CSAT by agent"
            columns={["Agent", "Good", "Bad", "CSAT"]}
            rows={agents.map((a) => [a.name, String(a.good), String(a.bad), formatPercent(a.score)])}
          />
        )
      }
      howCounted={
        <>
          <p>
            <strong>CSAT</strong>: good answers out of all answers, in percent. <strong>Response rate</strong>: surveys
            answered out of surveys sent. A survey goes out when a ticket is solved and counts in the period of that
            solve.
          </p>
          <p>
            Chats are rated in the widget when they end: their answers count in the period the chat started, and they
            have no survey sent. <strong>Resolved by the assistant</strong> covers chats it closed alone;{" "}
            <strong>by people</strong>, tickets and chats a person resolved. An agent is credited with the tickets
            assigned to them when solved.
          </p>
        </>
      }
    />
  );
}

export function AssistantSection({ report, params }: SectionProps) {
  const { chats, resolved_by_ai, handed_off, handoff_rate, rows, unanswered } = report.assistant;
  const chartRows = rows.map((r) => ({
    period: periodLabel(r.period, report.group),
    ai: r.resolved_by_ai,
    handed: r.handed_off,
    // Resolved alone and handed off never overlap; the rest were answered some other way (or are still open).
    other: Math.max(0, r.chats - r.resolved_by_ai - r.handed_off),
  }));
  // The card has something to show when only unanswered questions are in the range; its chart then has nothing.
  const noChats = chats === 0 && "No chats in this range.";
  return (
    <ReportCard
      section="assistant"
      title="The assistant"
      intro="Chats the AI assistant resolved on its own, and what it could not answer."
      params={params}
      empty={chats === 0 && unanswered.length === 0}
      figures={
        <Figures
          items={[
            { label: "Chats", value: formatCount(chats) },
            { label: "Resolved without a person", value: formatCount(resolved_by_ai) },
            { label: "Handed off", value: formatCount(handed_off) },
            { label: "Hand-off rate", value: formatPercent(handoff_rate) },
          ]}
        />
      }
      chart={
        <PeriodBars
          label={`Chats ${perGroup(report.group)}: resolved by the assistant, handed off, and the rest`}
          rows={chartRows}
          xKey="period"
          stacked
          series={[
            { key: "ai", label: "Resolved by the assistant" },
            { key: "handed", label: "Handed off", color: colorAt(2) },
            { key: "other", label: "Other chats", color: colorAt(5) },
          ]}
          noData={noChats}
        />
      }
      table={<SectionTable report={report} section="assistant" title="The assistant" noData={[noChats]} />}
      more={
        unanswered.length > 0 && (
          <div className="space-y-2">
            <h3 className="text-sm font-semibold text-slate-900">Top unanswered questions</h3>
            <DataTable
              caption="Questions the assistant could not answer, most asked first"
              columns={["Question", "Asked", "Handed off"]}
              rows={unanswered.map((q) => [q.question, String(q.count), String(q.handed_off)])}
            />
          </div>
        )
      }
      howCounted={
        <>
          <p>
            Chats that started in the period. <strong>Resolved without a person</strong>: closed with the assistant's
            answers alone, never handed off and with no reply from your team. <strong>Handed off</strong>: the assistant
            passed the chat to a person. <strong>Hand-off rate</strong>: handed off out of all chats.
          </p>
          <p>
            <strong>Unanswered questions</strong>: questions it handed off, was unsure about or got a thumbs down for,
            grouped by wording. Only the dates filter them.
          </p>
        </>
      }
    />
  );
}

/** The agents table's long column names (the CSV's), shortened on screen so its header stays one line. */
const AGENT_COLUMNS_SHORT = {
  "Median first response (min)": "First response (min)",
  "Median first response (business min)": "In business hours (min)",
  "CSAT good": "Good",
  "CSAT bad": "Bad",
};

export function AgentsSection({ report, params }: SectionProps) {
  const chartRows = report.agents.map((a) => ({ name: a.name, replies: a.replies, solved: a.solved }));
  // An agent can be listed for a first response or CSAT alone; the chart draws only replies and solved tickets.
  const noneDrawn =
    chartRows.every((a) => a.replies === 0 && a.solved === 0) && "No replies or solved tickets in this range.";
  return (
    <ReportCard
      section="agents"
      title="Agents"
      intro="Per person on the team: replies, tickets solved, first response and CSAT."
      params={params}
      empty={report.agents.length === 0}
      chart={
        <CategoryBars
          label="Replies and tickets solved per agent"
          rows={chartRows}
          xKey="name"
          series={[
            { key: "replies", label: "Replies" },
            { key: "solved", label: "Solved", color: colorAt(3) },
          ]}
          noData={noneDrawn}
        />
      }
      table={
        <SectionTable
          report={report}
          section="agents"
          title="Agents"
          noData={[noneDrawn]}
          short={AGENT_COLUMNS_SHORT}
        />
      }
      howCounted={
        <>
          <p>
            <strong>Replies</strong>: public replies the person wrote in the range. <strong>Solved</strong>: tickets
            assigned to them that were solved in the range.
          </p>
          <p>
            <strong>Median first response</strong>: of the tickets assigned to them that got their first answer in the
            range. <strong>CSAT</strong>: survey answers for the tickets they solved; the person credited is the
            assignee when the ticket was solved.
          </p>
        </>
      }
    />
  );
}

/** The chart draws the most used tags; the table view and the CSV list them all. */
const TAGS_DRAWN = 15;

export function TagsSection({ report, params }: SectionProps) {
  const chartRows = report.tags.slice(0, TAGS_DRAWN).map((t) => ({ tag: t.tag, total: t.total }));
  return (
    <ReportCard
      section="tags"
      title="Tags"
      intro={`Tickets per tag, and the trend ${perGroup(report.group)} in the table view.`}
      params={params}
      empty={report.tags.length === 0}
      chart={
        <CategoryBars
          label={report.tags.length > TAGS_DRAWN ? `Tickets per tag, the ${TAGS_DRAWN} most used` : "Tickets per tag"}
          rows={chartRows}
          xKey="tag"
          series={[{ key: "total", label: "Tickets" }]}
        />
      }
      table={<SectionTable report={report} section="tags" title="Tickets per tag" />}
      howCounted={
        <p>
          Tickets that came in during the range, per tag they carry now. A ticket with three tags counts once under each
          of them, so the tags add up to more than the tickets.
        </p>
      }
    />
  );
}

export function BusiestHoursSection({ report, params }: SectionProps) {
  const { tickets, chats } = report.busiest_hours;
  const all = [...tickets, ...chats].flat();
  return (
    <ReportCard
      section="busiest_hours"
      title="Busiest hours"
      intro={`When new tickets and chats arrive, by weekday and hour (${report.timezone}).`}
      params={params}
      empty={all.every((n) => n === 0)}
      chart={
        <div className="space-y-6">
          <Heatmap caption="New tickets by weekday and hour" weekdays={WEEKDAYS} values={tickets} />
          <Heatmap caption="Chats by weekday and hour" weekdays={WEEKDAYS} values={chats} />
        </div>
      }
      table={<SectionTable report={report} section="busiest_hours" title="Busiest hours" />}
      howCounted={
        <p>
          Tickets that came in and chats that started in the range, by the weekday and hour they arrived, in your
          organization's time zone ({report.timezone}). Darker cells are busier; each cell shows its count.
        </p>
      }
    />
  );
}
