import { type ReportAnswer, reportAnswer } from "@cove/contract/reports.ts";

const channels = (web: number, email: number, chat: number, portal: number, api: number) => ({
  web,
  email,
  chat,
  portal,
  api,
  total: web + email + chat + portal + api,
});

const times = (
  count: number,
  median: number | null,
  p90: number | null,
  bMedian: number | null,
  bP90: number | null,
) => ({
  count,
  median_minutes: median,
  p90_minutes: p90,
  median_business_minutes: bMedian,
  p90_business_minutes: bP90,
});

const zeroWeek = () => Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => 0));

/**
 * A three-day report (Europe/Berlin) with a figure in every section, parsed by the contract's schema so a fixture that
 * drifts from the API's answer fails here rather than passing on a shape the screen never receives.
 */
export function reportFixture(overrides: Partial<ReportAnswer> = {}): ReportAnswer {
  const tickets = zeroWeek();
  const chats = zeroWeek();
  tickets[1]![9] = 7; // Monday 09:00
  tickets[1]![10] = 3;
  chats[2]![14] = 2; // Tuesday 14:00
  return reportAnswer.parse({
    from: "2026-11-02",
    to: "2026-11-04",
    group: "day",
    timezone: "Europe/Berlin",
    periods: [
      { start: "2026-11-02", end: "2026-11-02" },
      { start: "2026-11-03", end: "2026-11-03" },
      { start: "2026-11-04", end: "2026-11-04" },
    ],
    volume: {
      totals: { created: channels(2, 5, 1, 1, 0), solved: channels(1, 3, 1, 0, 0) },
      rows: [
        { period: "2026-11-02", created: channels(1, 2, 0, 0, 0), solved: channels(0, 1, 0, 0, 0), backlog: 4 },
        { period: "2026-11-03", created: channels(1, 2, 1, 0, 0), solved: channels(1, 1, 1, 0, 0), backlog: 5 },
        { period: "2026-11-04", created: channels(0, 1, 0, 1, 0), solved: channels(0, 1, 0, 0, 0), backlog: 6 },
      ],
    },
    speed: {
      first_response: times(6, 42, 185.5, 30, 120),
      resolution: times(5, 1440, 4320, 480, 960),
      rows: [
        { period: "2026-11-02", first_response: times(2, 40, 50, 20, 30), resolution: times(1, 600, 600, 300, 300) },
        {
          period: "2026-11-03",
          first_response: times(3, 42, 190, 30, 125),
          resolution: times(3, 1440, 4000, 480, 900),
        },
        {
          period: "2026-11-04",
          first_response: times(1, 60, 60, 60, 60),
          resolution: times(1, 5000, 5000, 1000, 1000),
        },
      ],
    },
    sla: {
      priorities: [
        {
          priority: "low",
          first_response: { met: 0, missed: 0, share: null },
          resolution: { met: 0, missed: 0, share: null },
        },
        {
          priority: "normal",
          first_response: { met: 3, missed: 1, share: 75 },
          resolution: { met: 2, missed: 2, share: 50 },
        },
        {
          priority: "high",
          first_response: { met: 2, missed: 0, share: 100 },
          resolution: { met: 1, missed: 1, share: 50 },
        },
        {
          priority: "urgent",
          first_response: { met: 0, missed: 1, share: 0 },
          resolution: { met: 0, missed: 0, share: null },
        },
      ],
      breached: [
        {
          id: "5d0c1c38-6a0f-4f6e-9a53-0d6f0e0b7a01",
          number: 1042,
          subject: "Invoice shows the wrong address",
          priority: "urgent",
          kind: "first_response",
          due_at: "2026-11-02T10:00:00.000Z",
        },
      ],
      breached_total: 1,
    },
    satisfaction: {
      overall: { good: 4, bad: 1, score: 80, sent: 8, answered: 5, response_rate: 62.5 },
      rows: [
        { period: "2026-11-02", good: 1, bad: 0, score: 100, sent: 2, answered: 1, response_rate: 50 },
        { period: "2026-11-03", good: 2, bad: 1, score: 67, sent: 4, answered: 3, response_rate: 75 },
        { period: "2026-11-04", good: 1, bad: 0, score: 100, sent: 2, answered: 1, response_rate: 50 },
      ],
      agents: [{ agent_id: "9f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f", name: "Grace Hopper", good: 3, bad: 1, score: 75 }],
      ai: { good: 1, bad: 0, score: 100 },
      people: { good: 3, bad: 1, score: 75 },
    },
    assistant: {
      chats: 12,
      resolved_by_ai: 7,
      handed_off: 3,
      handoff_rate: 25,
      rows: [
        { period: "2026-11-02", chats: 4, resolved_by_ai: 3, handed_off: 1, handoff_rate: 25 },
        { period: "2026-11-03", chats: 5, resolved_by_ai: 3, handed_off: 1, handoff_rate: 20 },
        { period: "2026-11-04", chats: 3, resolved_by_ai: 1, handed_off: 1, handoff_rate: 33.3 },
      ],
      unanswered: [{ question: "Do you ship to Iceland?", count: 3, handed_off: 2 }],
    },
    agents: [
      {
        agent_id: "9f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f",
        name: "Grace Hopper",
        email: "grace@example.com",
        replies: 14,
        solved: 4,
        median_first_response_minutes: 38.5,
        median_first_response_business_minutes: 25,
        csat: { good: 3, bad: 1, score: 75 },
      },
    ],
    tags: [
      { tag: "billing", total: 4, counts: [1, 2, 1] },
      { tag: "shipping", total: 2, counts: [0, 1, 1] },
    ],
    busiest_hours: { tickets, chats },
    ...overrides,
  });
}

/** The same range with nothing in it. */
export function emptyReportFixture(): ReportAnswer {
  const none = channels(0, 0, 0, 0, 0);
  const base = reportFixture();
  return reportAnswer.parse({
    ...base,
    volume: {
      totals: { created: none, solved: none },
      rows: base.volume.rows.map((r) => ({ ...r, created: none, solved: none, backlog: 0 })),
    },
    speed: {
      first_response: times(0, null, null, null, null),
      resolution: times(0, null, null, null, null),
      rows: base.speed.rows.map((r) => ({
        ...r,
        first_response: times(0, null, null, null, null),
        resolution: times(0, null, null, null, null),
      })),
    },
    sla: {
      priorities: base.sla.priorities.map((p) => ({
        ...p,
        first_response: { met: 0, missed: 0, share: null },
        resolution: { met: 0, missed: 0, share: null },
      })),
      breached: [],
      breached_total: 0,
    },
    satisfaction: {
      overall: { good: 0, bad: 0, score: null, sent: 0, answered: 0, response_rate: null },
      rows: base.satisfaction.rows.map((r) => ({
        ...r,
        good: 0,
        bad: 0,
        score: null,
        sent: 0,
        answered: 0,
        response_rate: null,
      })),
      agents: [],
      ai: { good: 0, bad: 0, score: null },
      people: { good: 0, bad: 0, score: null },
    },
    assistant: {
      chats: 0,
      resolved_by_ai: 0,
      handed_off: 0,
      handoff_rate: null,
      rows: base.assistant.rows.map((r) => ({ ...r, chats: 0, resolved_by_ai: 0, handed_off: 0, handoff_rate: null })),
      unanswered: [],
    },
    agents: [],
    tags: [],
    busiest_hours: { tickets: zeroWeek(), chats: zeroWeek() },
  });
}
