import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addHours,
  businessMinutesCounter,
  DEFAULT_WINDOW,
  type OpeningWindow,
  runSlaRecomputes,
} from "../../src/modules/automation/sla.ts";
import { addComment, client, createTestApp, createTicket, registerOrg, type TestApp } from "../helpers.ts";

/**
 * The business minutes stored on each ticket for the reports (docs/reports.md; migration
 * *_ticket_business_minutes_trigger.sql): set when a ticket is first answered and solved, to the last solve after a
 * reopen, and worked out again when the business hours or the time zone change. Europe/Berlin changes to summer
 * time on Sunday 2026-03-29 (UTC+1 before, UTC+2 after).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const call = client(() => t.app);
const exec = (text: string, values: unknown[] = []) => t.database.executeSql(text, values);
const Z = (iso: string) => new Date(iso);

async function stored(id: string) {
  const res = await exec(
    `select created_at, first_responded_at, solved_at, first_response_business_minutes as fr,
            resolution_business_minutes as res from tickets where id = $1`,
    [id],
  );
  const row = res.rows[0] as {
    created_at: Date | string;
    first_responded_at: Date | string | null;
    solved_at: Date | string | null;
    fr: number | null;
    res: number | null;
  };
  return row;
}
const at = (v: Date | string | null) => (v === null ? null : new Date(v));
/** What businessMinutesCounter (the SLA's count) says of two instants. */
const counted = (window: OpeningWindow, zone: string, from: Date, to: Date) =>
  businessMinutesCounter(window, zone, from, to)(from, to);
const round = (v: number | null) => (v === null ? null : Math.round(v * 1000) / 1000);

async function berlinOrg() {
  const admin = await registerOrg(t.app);
  await exec("update organizations set timezone = 'Europe/Berlin' where id = $1", [admin.user.organizationId]);
  return admin;
}

describe("Business minutes stored on tickets", () => {
  it("are set on the first public reply and on the solve, and after a reopen count to the last solve", async () => {
    const admin = await berlinOrg();
    const ticket = await createTicket(t.app, admin.token, { subject: "Invoice twice" });
    expect(await stored(ticket.id)).toMatchObject({ fr: null, res: null });
    // Created Fri 2026-03-27 16:00 CET (15:00Z).
    await exec("update tickets set created_at = $2 where id = $1", [ticket.id, "2026-03-27T15:00:00Z"]);
    await addComment(t.app, admin.token, ticket.id, { is_public: false, body: "A note answers nobody." });
    expect((await stored(ticket.id)).fr).toBeNull();

    await addComment(t.app, admin.token, ticket.id);
    const replied = await stored(ticket.id);
    const repliedAt = at(replied.first_responded_at);
    expect(repliedAt).not.toBeNull();
    expect(round(replied.fr)).toBe(
      round(counted(DEFAULT_WINDOW, "Europe/Berlin", Z("2026-03-27T15:00:00Z"), repliedAt ?? Z(""))),
    );
    expect(replied.res).toBeNull();
    // As if answered Mon 03-30 10:00 CEST (08:00Z): Friday 16:00-17:00 and Monday 09:00-10:00.
    await exec("update tickets set first_responded_at = $2 where id = $1", [ticket.id, "2026-03-30T08:00:00Z"]);
    expect((await stored(ticket.id)).fr).toBe(120);

    expect((await call(admin.token, "PUT", `/api/tickets/${ticket.id}`, { status: "solved" })).statusCode).toBe(200);
    const solved = await stored(ticket.id);
    expect(round(solved.res)).toBe(
      round(counted(DEFAULT_WINDOW, "Europe/Berlin", Z("2026-03-27T15:00:00Z"), at(solved.solved_at) ?? Z(""))),
    );
    // Solved Mon 12:00 CEST (10:00Z): 60 + 180.
    await exec("update tickets set solved_at = $2 where id = $1", [ticket.id, "2026-03-30T10:00:00Z"]);
    expect((await stored(ticket.id)).res).toBe(240);

    // Reopened: no solve to count; solved again (Tue 03-31 09:30 CEST, 07:30Z): 60 + 480 + 30.
    expect((await call(admin.token, "PUT", `/api/tickets/${ticket.id}`, { status: "open" })).statusCode).toBe(200);
    expect(await stored(ticket.id)).toMatchObject({ fr: 120, res: null });
    expect((await call(admin.token, "PUT", `/api/tickets/${ticket.id}`, { status: "solved" })).statusCode).toBe(200);
    await exec("update tickets set solved_at = $2 where id = $1", [ticket.id, "2026-03-31T07:30:00Z"]);
    expect(await stored(ticket.id)).toMatchObject({ fr: 120, res: 570 });

    // The per-ticket export shows the stored figures.
    const csv = await call(admin.token, "GET", "/api/reports/tickets.csv?from=2026-03-27&to=2026-03-31");
    expect(csv.statusCode, csv.body).toBe(200);
    const cells = (csv.body.split("\r\n")[1]?.split(",") ?? []).map((c) => c.replaceAll('"', ""));
    expect(cells[11]).toBe("120");
    expect(cells[14]).toBe("570");
  });

  it("are worked out again by the SLA recompute when the business hours or the time zone change", async () => {
    const admin = await berlinOrg();
    const ticket = await createTicket(t.app, admin.token, { subject: "Hours change" });
    await exec(
      "update tickets set created_at = $2, first_responded_at = $3, solved_at = $4, status = 'solved' where id = $1",
      [
        ticket.id,
        "2026-03-27T15:00:00Z", // Fri 16:00 CET
        "2026-03-30T08:00:00Z", // Mon 10:00 CEST
        "2026-03-30T10:00:00Z", // Mon 12:00 CEST
      ],
    );
    expect(await stored(ticket.id)).toMatchObject({ fr: 120, res: 240 });

    const put = await call(admin.token, "PUT", "/api/automation/sla", {
      targets: [],
      business_hours: { days: [1, 2, 3, 4, 5], opens: "08:00", closes: "18:00" },
    });
    expect(put.statusCode, put.body).toBe(200);
    // Kept until the recompute (the sla-recompute job, or the timers' pass) works them out again.
    expect(await stored(ticket.id)).toMatchObject({ fr: 120, res: 240 });
    await runSlaRecomputes(t.database.db);
    // Fri 16:00-18:00, Mon 08:00-10:00 (first response) and 08:00-12:00 (solve).
    expect(await stored(ticket.id)).toMatchObject({ fr: 240, res: 360 });

    // In UTC the same instants are Fri 15:00 and Mon 08:00 / 10:00: 3 h + 0 h and 3 h + 2 h.
    const tz = await call(admin.token, "PUT", "/api/settings/general", { timezone: "UTC" });
    expect(tz.statusCode, tz.body).toBe(200);
    await runSlaRecomputes(t.database.db);
    expect(await stored(ticket.id)).toMatchObject({ fr: 180, res: 300 });
  });

  it("count as the SLA counts, across both changes of clocks and with hours that span midnight", async () => {
    const windows: OpeningWindow[] = [
      DEFAULT_WINDOW,
      { days: [1, 2, 3, 4, 5], opens: 22 * 60, closes: 6 * 60 },
      // Open the night the clocks go forward (Saturday into Sunday) and the one they go back.
      { days: [0, 1, 2, 3, 4, 5, 6], opens: 22 * 60, closes: 6 * 60 },
      { days: [0, 1, 2, 3, 4, 5, 6], opens: 2 * 60 + 30, closes: 3 * 60 },
      { days: [0, 6], opens: 0, closes: 23 * 60 + 59 },
      // Opening in the hour before the one Berlin repeats, and inside New York's.
      { days: [0, 1, 2, 3, 4, 5, 6], opens: 60, closes: 5 * 60 },
      { days: [0, 1, 2, 3, 4, 5, 6], opens: 90, closes: 5 * 60 },
    ];
    const spring = (from: string) => Array.from({ length: 40 }, (_, i) => Z(from).getTime() + i * 7.3 * 3_600_000);
    const autumn = (from: string) => Array.from({ length: 20 }, (_, i) => Z(from).getTime() + i * 5.9 * 3_600_000);
    const zones = [
      ["Europe/Berlin", [...spring("2026-03-25T00:00:00Z"), ...autumn("2026-10-22T00:00:00Z")]],
      ["America/New_York", [...spring("2026-03-04T00:00:00Z"), ...autumn("2026-10-29T00:00:00Z")]],
    ] as const;
    for (const [zone, starts] of zones) {
      for (const window of windows) {
        const pairs = starts.flatMap((s) => [1.5, 30, 200].map((h) => [s, s + h * 3_600_000] as const));
        const res = await exec(
          `select business_minutes_between(to_timestamp(a / 1000.0), to_timestamp(b / 1000.0), $5,
                    $2::smallint[], $3, $4) as m
           from jsonb_to_recordset($1::jsonb) as p(a float8, b float8, i int) order by i`,
          [
            JSON.stringify(pairs.map(([a, b], i) => ({ a, b, i }))),
            `{${window.days.join(",")}}`,
            window.opens,
            window.closes,
            zone,
          ],
        );
        const inDatabase = res.rows.map((r) => round(Number(r.m)));
        const inNode = pairs.map(([a, b]) => round(counted(window, zone, new Date(a), new Date(b))));
        expect(inDatabase, `${zone} ${window.opens}-${window.closes}`).toEqual(inNode);
        // And a due time SLA works out (addHours) is that many business hours away, past midnight and over both
        // changes of clocks too, whatever the window.
        for (const s of starts) {
          const start = new Date(s);
          const due = addHours(start, 5.5, window, zone);
          expect(round(counted(window, zone, start, due)), `${zone} ${start.toISOString()}`).toBe(330);
        }
      }
    }
  });

  it("are counted by PostgreSQL as hand-computed on the nights the clocks go back", async () => {
    const between = async (a: string, b: string, zone: string, opens: number, closes: number) => {
      const res = await exec(
        "select business_minutes_between($1::timestamptz, $2::timestamptz, $3, '{0,1,2,3,4,5,6}', $4, $5) as m",
        [a, b, zone, opens, closes],
      );
      return Number(res.rows[0]?.m);
    };
    // Berlin, Sunday 25 October 2026 (03:00 CEST back to 02:00 CET at 01:00 UTC). Saturday's 22:00-06:00 night:
    // 20:00-05:00 UTC, 9 hours. 01:00-05:00: 01:00 CEST (23:00 UTC) to 05:00 CET (04:00 UTC), 5 hours. 02:30-03:00:
    // the later 02:30 (CET, 01:30 UTC) to 03:00 CET (02:00 UTC), 30 minutes.
    expect(await between("2026-10-24T12:00Z", "2026-10-25T12:00Z", "Europe/Berlin", 22 * 60, 6 * 60)).toBe(540);
    expect(await between("2026-10-24T12:00Z", "2026-10-25T12:00Z", "Europe/Berlin", 60, 5 * 60)).toBe(300);
    expect(await between("2026-10-24T12:00Z", "2026-10-25T12:00Z", "Europe/Berlin", 150, 180)).toBe(30);
    // New York, Sunday 1 November 2026 (02:00 EDT back to 01:00 EST at 06:00 UTC). The night: 02:00-11:00 UTC, 9 h.
    // 01:30-05:00: the later 01:30 (EST, 06:30 UTC) to 05:00 EST (10:00 UTC), 3 h 30.
    expect(await between("2026-10-31T12:00Z", "2026-11-01T12:00Z", "America/New_York", 22 * 60, 6 * 60)).toBe(540);
    expect(await between("2026-10-31T12:00Z", "2026-11-01T12:00Z", "America/New_York", 90, 5 * 60)).toBe(210);
  });

  it("follow business hours that span midnight, in the report's speed figures", async () => {
    const admin = await registerOrg(t.app);
    const put = await call(admin.token, "PUT", "/api/automation/sla", {
      targets: [],
      business_hours: { days: [1, 2, 3, 4, 5], opens: "22:00", closes: "06:00" },
    });
    expect(put.statusCode, put.body).toBe(200);
    await runSlaRecomputes(t.database.db);
    // UTC. Created Fri 2026-03-27 23:00, answered Mon 03-30 23:00 (3 days; Friday's night 7 h, Monday's 1 h),
    // solved Tue 03-31 05:00 (3 days 6 hours; Monday's night until then: 7 h, so 14 h).
    const ticket = await createTicket(t.app, admin.token, { subject: "Night shift" });
    await exec(
      "update tickets set created_at = $2, first_responded_at = $3, solved_at = $4, status = 'solved' where id = $1",
      [ticket.id, "2026-03-27T23:00:00Z", "2026-03-30T23:00:00Z", "2026-03-31T05:00:00Z"],
    );
    expect(await stored(ticket.id)).toMatchObject({ fr: 480, res: 840 });
    const res = await call(admin.token, "GET", "/api/reports?from=2026-03-27&to=2026-03-31");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().speed).toMatchObject({
      first_response: { count: 1, median_minutes: 3 * 24 * 60, median_business_minutes: 480 },
      resolution: { count: 1, median_minutes: 3 * 24 * 60 + 6 * 60, median_business_minutes: 840 },
    });
  });
});
