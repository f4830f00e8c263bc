import type { ReportAnswer } from "@cove/contract/reports.ts";
import { afterEach, describe, expect, it } from "vitest";
import { setClock } from "../../src/platform/clock.ts";
import { client, createTicket, registerOrg, testAppForFile } from "../helpers.ts";
import { ticketStamps } from "../support/stamps.ts";

/**
 * The tickets a report reads besides the ones created in its range (modules/tickets/tickets.reports.ts): those created
 * before it and answered, solved or reopened in it (found off their own indexes, migration 0077), and those created
 * after its end, whose later status changes must not move its backlog. Times in UTC; every figure worked out by hand.
 *
 * Range 2026-03-10 to 2026-03-11, by day (bounds 03-10 00:00, 03-11 00:00, 03-12 00:00).
 * A: high; created 03-01 08:00 (before); first response 03-10 10:00, solved 03-10 12:00 (its solve in the range).
 * B: low; created 03-01 09:00 (before); solved 03-10 09:00, reopened 03-11 09:00; open now.
 * C: normal; created 03-10 08:00; open.
 * D: normal; created 03-20 08:00 (after the range), solved 03-21 08:00.
 */

const t = testAppForFile();
afterEach(() => setClock(null));

const call = client(() => t.app);
const exec = (text: string, values: unknown[] = []) => t.database.executeSql(text, values);

const { stamp, stampStatus } = ticketStamps(exec);

async function build() {
  const admin = await registerOrg(t.app);
  await exec("update organizations set timezone = 'UTC' where id = $1", [admin.user.organizationId]);
  const status = async (id: string, to: string) => {
    const res = await call(admin.token, "PUT", `/api/tickets/${id}`, { status: to });
    expect(res.statusCode, res.body).toBe(200);
  };
  const a = await createTicket(t.app, admin.token, { subject: "Answered in the range", priority: "high" });
  const b = await createTicket(t.app, admin.token, { subject: "Reopened in the range", priority: "low" });
  const c = await createTicket(t.app, admin.token, { subject: "New in the range" });
  const d = await createTicket(t.app, admin.token, { subject: "After the range" });
  await status(a.id, "solved");
  await status(b.id, "solved");
  await status(b.id, "open");
  await status(d.id, "solved");
  await stamp(a.id, {
    created_at: "2026-03-01T08:00:00Z",
    first_responded_at: "2026-03-10T10:00:00Z",
    solved_at: "2026-03-10T12:00:00Z",
  });
  await stampStatus(a.id, 0, "2026-03-10T12:00:00Z");
  await stamp(b.id, { created_at: "2026-03-01T09:00:00Z" });
  await stampStatus(b.id, 0, "2026-03-10T09:00:00Z");
  await stampStatus(b.id, 1, "2026-03-11T09:00:00Z");
  await stamp(c.id, { created_at: "2026-03-10T08:00:00Z" });
  await stamp(d.id, { created_at: "2026-03-20T08:00:00Z", solved_at: "2026-03-21T08:00:00Z" });
  await stampStatus(d.id, 0, "2026-03-21T08:00:00Z");
  return admin;
}

const report = async (who: { token: string }, filter = "") => {
  const res = await call(who, "GET", `/api/reports?from=2026-03-10&to=2026-03-11&group=day${filter}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ReportAnswer;
};

describe("Reports: tickets created outside the range", () => {
  it("count answers and solves in the range of older tickets, and the backlog from every status change", async () => {
    const admin = await build();
    setClock(() => new Date("2026-04-01T12:00:00Z"));

    const all = await report(admin);
    expect(all.volume.rows.map((r) => [r.period, r.created.total, r.solved.total, r.backlog])).toEqual([
      // 03-10: C created; A's last solve; at its end C open (B solved that morning, D not yet created).
      ["2026-03-10", 1, 1, 1],
      // 03-11: B reopened: B and C open at its end; D's later solve changes nothing here.
      ["2026-03-11", 0, 0, 2],
    ]);
    // A's first response and solve count in the range: 9 days 2 hours and 9 days 4 hours after its creation.
    expect(all.speed.first_response).toMatchObject({ count: 1, median_minutes: 9 * 1440 + 120 });
    expect(all.speed.resolution).toMatchObject({ count: 1, median_minutes: 9 * 1440 + 240 });
    expect(all.speed.rows.map((r) => [r.first_response.count, r.resolution.count])).toEqual([
      [1, 1],
      [0, 0],
    ]);

    // Filters apply to the older tickets too: high is A alone, low is B alone.
    const high = await report(admin, "&priority=high");
    expect(high.volume.rows.map((r) => [r.created.total, r.solved.total, r.backlog])).toEqual([
      [0, 1, 0],
      [0, 0, 0],
    ]);
    expect(high.speed.first_response.count).toBe(1);
    const low = await report(admin, "&priority=low");
    expect(low.volume.rows.map((r) => [r.created.total, r.solved.total, r.backlog])).toEqual([
      [0, 0, 0],
      [0, 0, 1],
    ]);
    expect(low.speed.first_response.count).toBe(0);
    expect(low.speed.resolution.count).toBe(0);
  });
});
