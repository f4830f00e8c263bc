import { REPORT_SECTIONS, type ReportAnswer, reportTable, TICKET_CSV_COLUMNS } from "@cove/contract/reports.ts";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { addHours, businessMinutesCounter, DEFAULT_WINDOW } from "../../src/modules/automation/sla.ts";
import { setClock } from "../../src/platform/clock.ts";
import { addComment, addMember, client, createTicket, registerOrg, testAppForFile } from "../helpers.ts";
import { ticketStamps } from "../support/stamps.ts";

/**
 * Reports (docs/reports.md) over an organization built with known timestamps in Europe/Berlin, across the change to
 * summer time on Sunday 2026-03-29 (02:00 CET -> 03:00 CEST; UTC+1 before, UTC+2 after), with the default business
 * hours (Monday to Friday, 09:00-17:00). Every figure below is worked out by hand in the comments.
 */

const t = testAppForFile();
afterEach(() => setClock(null));

const call = client(() => t.app);
const exec = (text: string, values: unknown[] = []) => t.database.executeSql(text, values);
const Z = (iso: string) => new Date(iso);

const { stamp, stampStatus } = ticketStamps(exec);

interface Built {
  admin: Awaited<ReturnType<typeof registerOrg>>;
  agent: Awaited<ReturnType<typeof addMember>>;
  orgId: string;
  ids: Record<"t0" | "t1" | "t2" | "t3" | "t4", string>;
  numbers: Record<"t1" | "t2" | "t3" | "t4", number>;
}

/**
 * T0: created Sun 2026-03-22 23:30 CET (22:30Z), before the range; open.
 * T1: email, high, [billing], agent's; created Fri 03-27 16:00 CET (15:00Z); public reply Mon 03-30 10:00 CEST
 *     (08:00Z) after an internal note Fri 16:30 CET; solved Mon 12:00 CEST (10:00Z). CSAT good.
 * T2: chat, urgent, [billing, bug], agent's; created Sat 03-28 23:30 CET (22:30Z); reply Sun 04:00 CEST (02:00Z:
 *     3.5 hours later though the wall clock moved 4.5); solved Sun 05:00 CEST (03:00Z); reopened Mon 09:30 CEST
 *     (07:30Z); solved again Tue 03-31 09:30 CEST (07:30Z). Survey not answered.
 * T3: web, normal, agent's, subject a formula; created Tue 03-24 10:00 CET (09:00Z); never answered; open.
 * T4: api, low; created Tue 03-31 08:00 CEST (06:00Z); only an internal note; open.
 * Targets: high 1 h first response and 8 h resolution in business hours; urgent 4 h and 8 h calendar; normal 4 h
 * first response calendar. Chats: C1 Sat 03-28 10:15 CET (09:15Z) resolved by the assistant, rated good; C2 Mon
 * 03-30 14:20 CEST (12:20Z) handed off to the agent, rated bad.
 */
async function build(): Promise<Built> {
  const admin = await registerOrg(t.app);
  const orgId = admin.user.organizationId;
  const agent = await addMember(t.database, orgId, { firstName: "Marco", lastName: "Alvarez" });
  await exec("update organizations set timezone = 'Europe/Berlin' where id = $1", [orgId]);
  const put = await call(admin.token, "PUT", "/api/automation/sla", {
    targets: [
      { priority: "high", first_response_hours: 1, resolution_hours: 8, business_hours: true },
      { priority: "urgent", first_response_hours: 4, resolution_hours: 8, business_hours: false },
      { priority: "normal", first_response_hours: 4, resolution_hours: null, business_hours: false },
    ],
  });
  expect(put.statusCode, put.body).toBe(200);

  const t0 = await createTicket(t.app, admin.token, { subject: "Old one" });
  const t1 = await createTicket(t.app, admin.token, { subject: "Invoice twice", priority: "high", tags: ["billing"] });
  const t2 = await createTicket(t.app, admin.token, {
    subject: "Charged after cancelling",
    priority: "urgent",
    tags: ["billing", "bug"],
    requester_email: "ben@example.com",
  });
  const t3 = await createTicket(t.app, admin.token, {
    subject: '=HYPERLINK("http://x")',
    requester_email: "-x@example.com",
  });
  const t4 = await createTicket(t.app, admin.token, { subject: "API question", priority: "low" });
  for (const id of [t1.id, t2.id, t3.id]) {
    const res = await call(admin.token, "PUT", `/api/tickets/${id}`, { assignee_id: agent.id });
    expect(res.statusCode, res.body).toBe(200);
  }
  // T1: a note, then the reply, then solved.
  await addComment(t.app, agent.token, t1.id, { is_public: false, body: "Checking the invoices." });
  const reply1 = await addComment(t.app, agent.token, t1.id);
  await call(agent.token, "PUT", `/api/tickets/${t1.id}`, { status: "solved" });
  // T2: reply, solve, reopen, solve again.
  const reply2 = await addComment(t.app, agent.token, t2.id);
  await call(agent.token, "PUT", `/api/tickets/${t2.id}`, { status: "solved" });
  await call(agent.token, "PUT", `/api/tickets/${t2.id}`, { status: "open" });
  await call(agent.token, "PUT", `/api/tickets/${t2.id}`, { status: "solved" });
  // T4: only a note: no first response.
  await addComment(t.app, admin.token, t4.id, { is_public: false, body: "Ask the API team." });

  await stamp(t0.id, { created_at: "2026-03-22T22:30:00Z" });
  await stamp(t1.id, {
    created_at: "2026-03-27T15:00:00Z",
    first_responded_at: "2026-03-30T08:00:00Z",
    solved_at: "2026-03-30T10:00:00Z",
    source: "email",
    first_response_due_at: "2026-03-27T16:00:00Z", // Fri 16:00 + 1 business hour = Fri 17:00 CET
    resolution_due_at: "2026-03-30T14:00:00Z", // Fri 1 h + Mon 09:00-16:00 CEST = 8 business hours
  });
  await exec("update ticket_comments set created_at = $2 where id = $1", [reply1.id, "2026-03-30T08:00:00Z"]);
  await stampStatus(t1.id, 0, "2026-03-30T10:00:00Z");
  await stamp(t2.id, {
    created_at: "2026-03-28T22:30:00Z",
    first_responded_at: "2026-03-29T02:00:00Z",
    solved_at: "2026-03-31T07:30:00Z",
    source: "chat",
    first_response_due_at: "2026-03-29T02:30:00Z", // 4 calendar hours
    resolution_due_at: "2026-03-29T06:30:00Z", // 8 calendar hours
  });
  await exec("update ticket_comments set created_at = $2 where id = $1", [reply2.id, "2026-03-29T02:00:00Z"]);
  await stampStatus(t2.id, 0, "2026-03-29T03:00:00Z");
  await stampStatus(t2.id, 1, "2026-03-30T07:30:00Z");
  await stampStatus(t2.id, 2, "2026-03-31T07:30:00Z");
  await stamp(t3.id, { created_at: "2026-03-24T09:00:00Z", first_response_due_at: "2026-03-24T13:00:00Z" });
  await stamp(t4.id, { created_at: "2026-03-31T06:00:00Z", source: "api" });

  // Surveys: the one of each solve (made by the solve), at the last solve's time; T1's answered good.
  const surveys = await exec("select ticket_id from csat_surveys where organization_id = $1", [orgId]);
  expect(surveys.rows.map((r) => r.ticket_id).sort()).toEqual([t1.id, t2.id].sort());
  await exec(
    "update csat_surveys set solved_at = $2, rating = 'good', answered_at = $2, agent_id = $3 where ticket_id = $1",
    [t1.id, "2026-03-30T10:00:00Z", agent.id],
  );
  await exec("update csat_surveys set solved_at = $2, agent_id = $3 where ticket_id = $1", [
    t2.id,
    "2026-03-31T07:30:00Z",
    agent.id,
  ]);

  // Chats and the assistant's unanswered questions.
  const contact = await exec("select id from contacts where organization_id = $1 limit 1", [orgId]);
  const contactId = contact.rows[0]?.id;
  await exec(
    `insert into chat_sessions (organization_id, contact_id, visitor_name, status, started_at, ended_at, resolved_by_ai, rating, rated_at)
     values ($1, $2, 'Vi', 'closed', '2026-03-28T09:15:00Z', '2026-03-28T09:20:00Z', true, 'good', '2026-03-28T09:21:00Z')`,
    [orgId, contactId],
  );
  await exec(
    `insert into chat_sessions (organization_id, contact_id, visitor_name, status, started_at, ended_at, handed_off_at, assigned_agent_id, rating, rated_at)
     values ($1, $2, 'Vo', 'closed', '2026-03-30T12:20:00Z', '2026-03-30T12:50:00Z', '2026-03-30T12:22:00Z', $3, 'bad', '2026-03-30T12:51:00Z')`,
    [orgId, contactId, agent.id],
  );
  const ask = (question: string, at: string, extra: { handoff?: boolean; confidence?: number } = {}) =>
    exec(
      `insert into ai_answers (organization_id, channel, question, confidence, handoff, provider, latency_ms, created_at)
       values ($1, 'chat', $2, $3, $4, 'embedded', 5, $5)`,
      [orgId, question, extra.confidence ?? 0.9, extra.handoff ?? false, at],
    );
  await ask("Can I pay by invoice?", "2026-03-28T09:16:00Z", { handoff: true });
  await ask("Pay by invoice?", "2026-03-30T12:21:00Z", { confidence: 0.3 });
  await ask("Where is my parcel?", "2026-03-30T12:21:30Z", { handoff: true });
  await ask("Opening hours?", "2026-03-30T12:22:00Z"); // answered well: not listed
  await ask("Do you ship to Mars?", "2026-04-02T10:00:00Z", { handoff: true }); // after the range
  await ask("Test from the console", "2026-03-30T12:00:00Z"); // console rows are left out below
  await exec("update ai_answers set channel = 'console', handoff = true where question = 'Test from the console'");

  return {
    admin,
    agent,
    orgId,
    ids: { t0: t0.id, t1: t1.id, t2: t2.id, t3: t3.id, t4: t4.id },
    numbers: { t1: t1.ticket_number, t2: t2.ticket_number, t3: t3.ticket_number, t4: t4.ticket_number },
  };
}

const RANGE = "from=2026-03-23&to=2026-03-31";
const report = async (who: { token: string }, query: string) => {
  const res = await call(who, "GET", `/api/reports?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ReportAnswer;
};
/** Wednesday after the range, noon: T3's first response is past due. */
const fixClock = () => setClock(() => Z("2026-04-01T12:00:00Z"));

describe("Reports", () => {
  let b: Built;
  beforeAll(async () => {
    b = await build();
  });

  it("count every figure of a week-grouped report as worked out by hand, across the change to summer time", async () => {
    fixClock();
    const r = await report(b.admin, `${RANGE}&group=week`);
    expect(r.timezone).toBe("Europe/Berlin");
    expect(r.periods).toEqual([
      { start: "2026-03-23", end: "2026-03-29" },
      { start: "2026-03-30", end: "2026-03-31" },
    ]);
    const zero = { web: 0, email: 0, chat: 0, portal: 0, api: 0, total: 0 };
    // Volume: T0 is before the range; T2's solve counts at its last solve (Tuesday). Backlog at Sunday's end (22:00Z):
    // T0, T1 and T3 open, T2 solved then. At Tuesday's end: T0, T3, T4.
    expect(r.volume.rows).toEqual([
      { period: "2026-03-23", created: { ...zero, web: 1, email: 1, chat: 1, total: 3 }, solved: zero, backlog: 3 },
      {
        period: "2026-03-30",
        created: { ...zero, api: 1, total: 1 },
        solved: { ...zero, email: 1, chat: 1, total: 2 },
        backlog: 3,
      },
    ]);
    // Speed. First response: T2 3.5 h = 210 min (weekend: 0 business), answered in week 1; T1 Fri 15:00Z -> Mon
    // 08:00Z = 65 h = 3900 min (the wall clock says 66 h), business Fri 16-17 + Mon 9-10 = 120. Resolution (week 2):
    // T1 67 h = 4020 min, business 60 + 180 = 240; T2 to its last solve: Sat 22:30Z -> Tue 07:30Z = 57 h = 3420 min,
    // business Mon 480 + Tue 30 = 510.
    expect(r.speed.rows[0]?.first_response).toEqual({
      count: 1,
      median_minutes: 210,
      p90_minutes: 210,
      median_business_minutes: 0,
      p90_business_minutes: 0,
    });
    expect(r.speed.rows[1]?.first_response).toEqual({
      count: 1,
      median_minutes: 3900,
      p90_minutes: 3900,
      median_business_minutes: 120,
      p90_business_minutes: 120,
    });
    expect(r.speed.rows[0]?.resolution.count).toBe(0);
    // Two values: median halfway, 90th percentile at 0.9 of the way (210 + 0.9 * 3690 = 3531).
    expect(r.speed.first_response).toEqual({
      count: 2,
      median_minutes: 2055,
      p90_minutes: 3531,
      median_business_minutes: 60,
      p90_business_minutes: 108,
    });
    expect(r.speed.resolution).toEqual({
      count: 2,
      median_minutes: 3720, // (3420 + 4020) / 2
      p90_minutes: 3960, // 3420 + 0.9 * 600
      median_business_minutes: 375,
      p90_business_minutes: 483,
    });
    // SLA: T1 answered late (due Fri 17:00 CET), solved in time (due Mon 16:00 CEST); T2 answered in time (due 02:30Z:
    // 4 real hours, though the clock read 04:00 at the reply), solved late; T3 never answered, past due by the clock.
    expect(r.sla.priorities).toEqual([
      {
        priority: "low",
        first_response: { met: 0, missed: 0, share: null },
        resolution: { met: 0, missed: 0, share: null },
      },
      {
        priority: "normal",
        first_response: { met: 0, missed: 1, share: 0 },
        resolution: { met: 0, missed: 0, share: null },
      },
      {
        priority: "high",
        first_response: { met: 0, missed: 1, share: 0 },
        resolution: { met: 1, missed: 0, share: 100 },
      },
      {
        priority: "urgent",
        first_response: { met: 1, missed: 0, share: 100 },
        resolution: { met: 0, missed: 1, share: 0 },
      },
    ]);
    expect(r.sla.breached.map((x) => [x.number, x.kind, x.due_at])).toEqual([
      [b.numbers.t3, "first_response", "2026-03-24T13:00:00.000Z"],
      [b.numbers.t1, "first_response", "2026-03-27T16:00:00.000Z"],
      [b.numbers.t2, "resolution", "2026-03-29T06:30:00.000Z"],
    ]);
    expect(r.sla.breached[0]).toMatchObject({ id: b.ids.t3, subject: '=HYPERLINK("http://x")', priority: "normal" });
    expect(r.sla.breached_total).toBe(3);
    // Satisfaction: week 1 the chat C1 (good, the assistant's); week 2 T1's survey (good) of the two sent, and C2 (bad).
    expect(r.satisfaction.rows).toEqual([
      { period: "2026-03-23", good: 1, bad: 0, score: 100, sent: 0, answered: 0, response_rate: null },
      { period: "2026-03-30", good: 1, bad: 1, score: 50, sent: 2, answered: 1, response_rate: 50 },
    ]);
    expect(r.satisfaction.overall).toEqual({ good: 2, bad: 1, score: 67, sent: 2, answered: 1, response_rate: 50 });
    expect(r.satisfaction.ai).toEqual({ good: 1, bad: 0, score: 100 });
    expect(r.satisfaction.people).toEqual({ good: 1, bad: 1, score: 50 });
    expect(r.satisfaction.agents).toEqual([
      { agent_id: b.agent.id, name: "Marco Alvarez", good: 1, bad: 0, score: 100 },
    ]);
    // The assistant: C1 resolved alone, C2 handed off. Unanswered: the two invoice questions are one (one handed off),
    // the parcel one; not the well answered, the later, nor the console's.
    expect(r.assistant).toMatchObject({ chats: 2, resolved_by_ai: 1, handed_off: 1, handoff_rate: 50 });
    expect(r.assistant.rows).toEqual([
      { period: "2026-03-23", chats: 1, resolved_by_ai: 1, handed_off: 0, handoff_rate: 0 },
      { period: "2026-03-30", chats: 1, resolved_by_ai: 0, handed_off: 1, handoff_rate: 100 },
    ]);
    expect(r.assistant.unanswered).toEqual([
      { question: "Pay by invoice?", count: 2, handed_off: 1 },
      { question: "Where is my parcel?", count: 1, handed_off: 1 },
    ]);
    // Agents: Marco wrote the two replies (the note is not one), solved T1 and T2; his first responses 210 and 3900.
    expect(r.agents).toEqual([
      {
        agent_id: b.agent.id,
        name: "Marco Alvarez",
        email: b.agent.email,
        replies: 2,
        solved: 2,
        median_first_response_minutes: 2055,
        median_first_response_business_minutes: 60,
        csat: { good: 1, bad: 0, score: 100 },
      },
      {
        agent_id: b.admin.user.id,
        name: "Ada Lovelace",
        email: b.admin.user.email,
        replies: 0,
        solved: 0,
        median_first_response_minutes: null,
        median_first_response_business_minutes: null,
        csat: { good: 0, bad: 0, score: null },
      },
    ]);
    expect(r.tags).toEqual([
      { tag: "billing", total: 2, counts: [2, 0] },
      { tag: "bug", total: 1, counts: [1, 0] },
    ]);
    // Busiest hours in Berlin time: T1 Fri 16h, T2 Sat 23h, T3 Tue 10h, T4 Tue 08h (CEST); C1 Sat 10h, C2 Mon 14h.
    const cells = (m: number[][]) => m.flatMap((hours, day) => hours.flatMap((n, hour) => (n ? [[day, hour, n]] : [])));
    expect(cells(r.busiest_hours.tickets)).toEqual([
      [2, 8, 1],
      [2, 10, 1],
      [5, 16, 1],
      [6, 23, 1],
    ]);
    expect(cells(r.busiest_hours.chats)).toEqual([
      [1, 14, 1],
      [6, 10, 1],
    ]);
  });

  it("groups by day in the organization's days: the Sunday of the change is a 23-hour day", async () => {
    fixClock();
    const r = await report(b.admin, "from=2026-03-28&to=2026-03-30&group=day");
    expect(r.periods.map((p) => p.start)).toEqual(["2026-03-28", "2026-03-29", "2026-03-30"]);
    // T2 was created Saturday 23:30 CET (22:30Z): Saturday in Berlin, though it is 22:30 in UTC too; answered Sunday.
    expect(r.volume.rows.map((x) => x.created.total)).toEqual([1, 0, 0]);
    expect(r.speed.rows.map((x) => x.first_response.count)).toEqual([0, 1, 1]);
    // Backlog at each day's end: Sat T0 T1 T2 T3 = 4; Sun T2 solved = 3; Mon T1 solved, T2 reopened = 3.
    expect(r.volume.rows.map((x) => x.backlog)).toEqual([4, 3, 3]);
    const month = await report(b.admin, "from=2026-03-23&to=2026-04-02&group=month");
    expect(month.periods).toEqual([
      { start: "2026-03-23", end: "2026-03-31" },
      { start: "2026-04-01", end: "2026-04-02" },
    ]);
  });

  it("obeys every filter", async () => {
    fixClock();
    const urgent = await report(b.admin, `${RANGE}&group=week&priority=urgent`);
    expect(urgent.volume.totals.created.total).toBe(1);
    expect(urgent.speed.resolution.median_minutes).toBe(3420);
    // Chats have no priority: their figures count nothing under a priority filter.
    expect(urgent.assistant.chats).toBe(0);
    expect(urgent.busiest_hours.chats.flat().reduce((a, c) => a + c, 0)).toBe(0);
    expect(urgent.satisfaction.overall).toMatchObject({ good: 0, bad: 0, sent: 1, answered: 0 });
    const email = await report(b.admin, `${RANGE}&channel=email`);
    expect(email.volume.totals.created).toMatchObject({ email: 1, total: 1 });
    expect(email.assistant.chats).toBe(0);
    const chat = await report(b.admin, `${RANGE}&channel=chat`);
    expect(chat.volume.totals.created).toMatchObject({ chat: 1, total: 1 });
    expect(chat.assistant.chats).toBe(2);
    const bug = await report(b.admin, `${RANGE}&tag=bug`);
    // Only T2 (created Saturday 03-28, the 6th day), with both its tags.
    expect(bug.tags).toEqual([
      { tag: "billing", total: 1, counts: [0, 0, 0, 0, 0, 1, 0, 0, 0] },
      { tag: "bug", total: 1, counts: [0, 0, 0, 0, 0, 1, 0, 0, 0] },
    ]);
    expect(bug.volume.totals.created.total).toBe(1);
    const admins = await report(b.admin, `${RANGE}&agent=${b.admin.user.id}`);
    expect(admins.volume.totals.created.total).toBe(0);
    // C2 was the agent's chat; nothing was the admin's.
    expect(admins.assistant.chats).toBe(0);
    const marco = await report(b.admin, `${RANGE}&agent=${b.agent.id}`);
    expect(marco.volume.totals.created.total).toBe(3);
    expect(marco.assistant.chats).toBe(1);
    expect(marco.agents.map((a) => a.agent_id)).toEqual([b.agent.id]);
  });

  it("answers every section as CSV exactly as its table shows it", async () => {
    fixClock();
    const r = await report(b.agent, `${RANGE}&group=week`);
    for (const section of REPORT_SECTIONS) {
      const res = await call(b.agent, "GET", `/api/reports/${section}.csv?${RANGE}&group=week`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
      const table = reportTable(r, section);
      const expected = [table.columns, ...table.rows]
        .map((row) => `${row.map((c) => `"${c.replaceAll('"', '""')}"`).join(",")}\r\n`)
        .join("");
      expect(res.body).toBe(expected);
    }
    const volume = await call(b.agent, "GET", `/api/reports/volume.csv?${RANGE}&group=week`);
    expect(volume.body.split("\r\n")[1]).toBe('"2026-03-23","1","1","1","0","0","3","0","0","0","0","0","0","3"');
    const speed = await call(b.agent, "GET", `/api/reports/speed.csv?${RANGE}&group=week`);
    expect(speed.body.split("\r\n")[2]).toBe(
      '"2026-03-30","1","3900","3900","120","120","2","3720","3960","375","483"',
    );
    const sla = await call(b.agent, "GET", `/api/reports/sla.csv?${RANGE}`);
    expect(sla.body.split("\r\n")[3]).toBe('"high","0","1","0%","1","0","100%"');
  });

  it("exports one row per ticket with every figure, times in UTC, formulas neutralised", async () => {
    fixClock();
    const res = await call(b.admin, "GET", `/api/reports/tickets.csv?${RANGE}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe('attachment; filename="tickets-2026-03-23-to-2026-03-31.csv"');
    const lines = res.body.split("\r\n");
    expect(lines[0]).toBe(TICKET_CSV_COLUMNS.map((c) => `"${c}"`).join(","));
    const row = (cells: (string | number)[]) => cells.map((c) => `"${String(c).replaceAll('"', '""')}"`).join(",");
    expect(lines.slice(1)).toEqual([
      // By creation: T3, T1, T2, T4 (T0 is before the range).
      row([
        b.numbers.t3,
        `'=HYPERLINK("http://x")`,
        "web",
        "open",
        "normal",
        "'-x@example.com",
        b.agent.email,
        "",
        "2026-03-24T09:00:00.000Z",
        "",
        "",
        "",
        "",
        "",
        "",
        0,
        "no",
        "",
        "",
      ]),
      row([
        b.numbers.t1,
        "Invoice twice",
        "email",
        "solved",
        "high",
        "ana@example.com",
        b.agent.email,
        "billing",
        "2026-03-27T15:00:00.000Z",
        "2026-03-30T08:00:00.000Z",
        3900,
        120,
        "2026-03-30T10:00:00.000Z",
        4020,
        240,
        0,
        "no",
        "yes",
        "good",
      ]),
      row([
        b.numbers.t2,
        "Charged after cancelling",
        "chat",
        "solved",
        "urgent",
        "ben@example.com",
        b.agent.email,
        "billing, bug",
        "2026-03-28T22:30:00.000Z",
        "2026-03-29T02:00:00.000Z",
        210,
        0,
        "2026-03-31T07:30:00.000Z",
        3420,
        510,
        1,
        "yes",
        "no",
        "",
      ]),
      row([
        b.numbers.t4,
        "API question",
        "api",
        "open",
        "low",
        "ana@example.com",
        "",
        "",
        "2026-03-31T06:00:00.000Z",
        "",
        "",
        "",
        "",
        "",
        "",
        0,
        "",
        "",
        "",
      ]),
      "",
    ]);
  });

  it("are for agents and admins only, and never show another organization's data", async () => {
    fixClock();
    const other = await registerOrg(t.app);
    const empty = await report(other, `${RANGE}&group=week`);
    expect(empty.volume.totals.created.total).toBe(0);
    expect(empty.volume.rows.map((x) => x.backlog)).toEqual([0, 0]);
    expect(empty.assistant.chats).toBe(0);
    expect(empty.assistant.unanswered).toEqual([]);
    expect(empty.sla.breached).toEqual([]);
    expect(empty.agents.map((a) => a.agent_id)).toEqual([other.user.id]);
    expect(empty.satisfaction.overall.sent).toBe(0);
    expect(empty.tags).toEqual([]);
    // Naming the first organization's agent finds nothing either.
    const named = await report(other, `${RANGE}&agent=${b.agent.id}`);
    expect(named.volume.totals.created.total).toBe(0);
    expect(named.agents).toEqual([]);
    const csv = await call(other, "GET", `/api/reports/tickets.csv?${RANGE}`);
    expect(csv.body).toBe(`${TICKET_CSV_COLUMNS.map((c) => `"${c}"`).join(",")}\r\n`);
    for (const section of REPORT_SECTIONS) {
      const res = await call(other, "GET", `/api/reports/${section}.csv?${RANGE}`);
      expect(res.body).not.toContain("Marco");
      expect(res.body).not.toContain("billing");
    }
    // Nobody signed in, a customer, an API key: refused.
    const urls = ["/api/reports", "/api/reports/tickets.csv", ...REPORT_SECTIONS.map((s) => `/api/reports/${s}.csv`)];
    const key = await call(b.admin, "POST", "/api/settings/api-keys", { name: "Reports", scope: "read" });
    expect(key.statusCode, key.body).toBe(201);
    for (const url of urls) {
      expect((await call(null, "GET", `${url}?${RANGE}`)).statusCode).toBe(401);
      expect((await call(key.json().token, "GET", `${url}?${RANGE}`)).statusCode).toBe(403);
      expect((await call(b.agent, "GET", `${url}?${RANGE}`)).statusCode).toBe(200);
    }
  });

  it("answers bad queries with a clear 400", async () => {
    const cases: [string, string][] = [
      ["", "from must be a date such as 2026-11-29"],
      ["from=2026-03-01", "to must be a date such as 2026-11-29"],
      ["from=2026-02-30&to=2026-03-01", "from must be a date such as 2026-11-29"],
      ["from=2026-03-02&to=2026-03-01", "from must be on or before to"],
      ["from=2025-01-01&to=2026-03-01", "A report covers at most 366 days"],
      ["from=2026-03-01&to=2026-03-02&group=year", "group must be day, week or month"],
      ["from=2026-03-01&to=2026-03-02&channel=fax", "channel must be one of web, email, chat, portal, api"],
      ["from=2026-03-01&to=2026-03-02&agent=me", "agent must be a member's id"],
      ["from=2026-03-01&to=2026-03-02&priority=asap", "priority must be one of low, normal, high, urgent"],
    ];
    for (const [query, message] of cases) {
      for (const url of ["/api/reports", "/api/reports/tickets.csv", "/api/reports/volume.csv"]) {
        const res = await call(b.agent, "GET", `${url}?${query}`);
        expect(res.statusCode, `${url}?${query}`).toBe(400);
        expect(res.json().error).toBe(message);
      }
    }
  });

  it("streams a long export in pages, each ticket once, ties in creation time included", async () => {
    const org = await registerOrg(t.app);
    const orgId = org.user.organizationId;
    // 2,345 tickets, every 7 sharing a creation time, in the range.
    await exec(
      `insert into tickets (organization_id, ticket_number, subject, description, requester_name, requester_email, created_at)
       select $1, 1000 + n, 'Bulk ' || n, 'x', 'R', 'r@example.com', timestamptz '2026-03-10T12:00:00Z' + (n / 7) * interval '1 minute'
       from generate_series(1, 2345) n`,
      [orgId],
    );
    const res = await call(org, "GET", "/api/reports/tickets.csv?from=2026-03-01&to=2026-03-31");
    expect(res.statusCode).toBe(200);
    const numbers = res.body
      .split("\r\n")
      .slice(1, -1)
      .map((l) => Number(l.split(",")[0]?.replaceAll('"', "")));
    expect(numbers).toHaveLength(2345);
    expect(new Set(numbers).size).toBe(2345);
    expect(numbers[0]).toBe(1001);
  });
});

describe("Business minutes", () => {
  const berlin = "Europe/Berlin";
  const count = (window: typeof DEFAULT_WINDOW, a: string, b: string) =>
    businessMinutesCounter(window, berlin, Z(a), Z(b))(Z(a), Z(b));

  it("follow the business hours SLA uses, across a change of clocks", () => {
    // Fri 16:00 CET -> Mon 10:00 CEST: 60 + 60.
    expect(count(DEFAULT_WINDOW, "2026-03-27T15:00:00Z", "2026-03-30T08:00:00Z")).toBe(120);
    // Autumn: Fri 16:00 CEST (14:00Z) 2026-10-23 -> Mon 10:00 CET (09:00Z) 10-26.
    expect(count(DEFAULT_WINDOW, "2026-10-23T14:00:00Z", "2026-10-26T09:00:00Z")).toBe(120);
    // Inside one day, and nothing at the weekend.
    expect(count(DEFAULT_WINDOW, "2026-03-24T09:30:00Z", "2026-03-24T10:15:00Z")).toBe(45);
    expect(count(DEFAULT_WINDOW, "2026-03-28T09:00:00Z", "2026-03-29T20:00:00Z")).toBe(0);
    // Agrees with addHours, which SLA due times are worked out with, from many starts over both changes.
    for (let i = 0; i < 300; i++) {
      const start = new Date(Date.UTC(2026, 2, 20) + i * 97 * 60_000 * 7);
      for (const hours of [1, 5.5, 8, 30]) {
        const due = addHours(start, hours, DEFAULT_WINDOW, berlin);
        const counter = businessMinutesCounter(DEFAULT_WINDOW, berlin, start, due);
        expect(Math.round(counter(start, due) * 1000) / 1000).toBe(hours * 60);
      }
    }
  });

  it("handle business hours that span midnight, and a night of the change", () => {
    // Open 22:00 to 06:00 from Monday to Friday nights. Fri 27 22:00 CET -> Sat 06:00 CET is Friday's night: 8 h.
    const night = { days: [1, 2, 3, 4, 5], opens: 22 * 60, closes: 6 * 60 };
    expect(count(night, "2026-03-27T12:00:00Z", "2026-03-28T12:00:00Z")).toBe(480);
    // A window over the change: Sunday's night is not a working one, so open every night for it.
    const every = { days: [0, 1, 2, 3, 4, 5, 6], opens: 22 * 60, closes: 6 * 60 };
    // Sat 28 22:00 CET (21:00Z) -> Sun 29 06:00 CEST (04:00Z): 7 real hours.
    expect(count(every, "2026-03-28T20:00:00Z", "2026-03-29T05:00:00Z")).toBe(420);
    // From 23:30 CET Saturday (22:30Z) to 04:00 CEST (02:00Z): 3.5 hours.
    expect(count(every, "2026-03-28T22:30:00Z", "2026-03-29T02:00:00Z")).toBe(210);
  });
});
