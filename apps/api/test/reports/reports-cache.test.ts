import { type ReportAnswer, reportQuery } from "@cove/contract/reports.ts";
import { afterEach, describe, expect, it } from "vitest";
import { LOW_CONFIDENCE } from "../../src/modules/ai/ai.queries.ts";
import { buildReport } from "../../src/modules/reports/reports.service.ts";
import { setClock } from "../../src/platform/clock.ts";
import { withTenant } from "../../src/platform/tenancy.ts";
import { client, createTicket, registerOrg, testAppForFile } from "../helpers.ts";
import { ticketStamps } from "../support/stamps.ts";

/**
 * The report's answers are cached (platform/answer-cache.ts; migration 0080 versions what a report reads): a report
 * asked again while nothing changed is served from the cache, and after each kind of change a report reads, or once a
 * due time has passed with no write at all, the answer is the one a fresh computation gives at that moment.
 */

const keys: string[] = [];
const t = testAppForFile({
  // The cache's keys of the answers computed (this hook runs after the cache's own onSend, which reads the key).
  setup: (app) =>
    app.addHook("onSend", async (req, _reply, payload) => {
      if (req.answerKey) keys.push(req.answerKey);
      return payload;
    }),
});
afterEach(() => setClock(null));

const call = client(() => t.app);
const exec = (text: string, values: unknown[] = []) => t.database.executeSql(text, values);
const { stamp } = ticketStamps(exec);

const HOUR = 3_600_000;
const utcDay = (at: number) => new Date(at).toISOString().slice(0, 10);

type Admin = Awaited<ReturnType<typeof registerOrg>>;

describe("Reports: the answer cache", () => {
  it("serves a report again until what it reads changes or a due time passes, and then answers as fresh", async () => {
    // The API stamps rows with the database's time: the range is the days around it, and the app's clock starts there.
    const start = Date.now();
    let clock = start;
    setClock(() => new Date(clock));
    const query = { from: utcDay(start - 86_400_000), to: utcDay(start + 86_400_000), group: "day" };
    const url = `/api/reports?from=${query.from}&to=${query.to}&group=day`;

    const admin = await registerOrg(t.app);
    const orgId = admin.user.organizationId;
    await exec("update organizations set timezone = 'UTC' where id = $1", [orgId]);
    const waiting = await createTicket(t.app, admin.token, { subject: "Waiting for an answer", priority: "high" });
    const solving = await createTicket(t.app, admin.token, { subject: "About to be solved" });
    // One due time in the future (an hour from the clock), none else: the report's answer holds until then.
    const due = new Date(start + HOUR).toISOString();
    await stamp(waiting.id, { first_response_due_at: due, resolution_due_at: null });
    await stamp(solving.id, { first_response_due_at: null, resolution_due_at: null });

    const stored = () => t.app.answers.stats().stored;
    const fresh = (who: Admin) =>
      withTenant(t.database.db, { orgId: who.user.organizationId, userId: who.user.id, role: "admin" }, (ctx) =>
        buildReport(ctx, reportQuery.parse(query)),
      );
    /** The report through the route; it must be what a fresh computation answers now. */
    const report = async (who: Admin = admin) => {
      const res = await call(who, "GET", url);
      expect(res.statusCode, res.body).toBe(200);
      const answer = res.json() as ReportAnswer;
      expect(answer).toEqual(JSON.parse(JSON.stringify((await fresh(who)).answer)));
      return answer;
    };
    /** The report, and whether it was computed (stored) rather than served from the cache. */
    const ask = async (who: Admin = admin) => {
      const before = stored();
      const answer = await report(who);
      return { answer, computed: stored() > before };
    };

    const first = await ask();
    expect(first.computed).toBe(true);
    expect(first.answer.volume.totals.created.total).toBe(2);
    expect(first.answer.sla.breached).toEqual([]);
    const again = await ask();
    expect(again.computed).toBe(false);
    expect(again.answer).toEqual(first.answer);

    // A ticket solved.
    const solved = await call(admin, "PUT", `/api/tickets/${solving.id}`, { status: "solved" });
    expect(solved.statusCode, solved.body).toBe(200);
    // The survey's email follows from the job queue and writes its link's token to the survey (no column an answer
    // reads, so it leaves the version alone: migration 0085): wait for it all the same, so that the steps below do not
    // depend on when it lands.
    const mailed = Date.now() + 15_000;
    const surveyMailed = async () =>
      (await exec("select 1 from csat_surveys where ticket_id = $1 and token_hash is not null", [solving.id])).rows
        .length > 0;
    while (!(await surveyMailed())) {
      if (Date.now() > mailed) throw new Error("the survey was never mailed");
      await new Promise((r) => setTimeout(r, 50));
    }
    const afterSolve = await ask();
    expect(afterSolve.computed).toBe(true);
    expect(afterSolve.answer.volume.totals.solved.total).toBe(1);
    // The survey's link written again (as when it is mailed): nothing a report reads, so the answer stays cached.
    await exec(
      `update csat_surveys set token_hash = md5(random()::text), updated_at = now(),
              expires_at = expires_at + interval '1 day' where ticket_id = $1`,
      [solving.id],
    );
    expect((await ask()).computed).toBe(false);

    // A chat started; a message in it (last_message) is nothing a report reads, and leaves the answer cached.
    const contact = await exec("select id from contacts where organization_id = $1 limit 1", [orgId]);
    const chat = await exec(
      `insert into chat_sessions (organization_id, contact_id, visitor_name, status, started_at, resolved_by_ai)
       values ($1, $2, 'Vi', 'active', now(), false) returning id`,
      [orgId, contact.rows[0]?.id],
    );
    const afterChat = await ask();
    expect(afterChat.computed).toBe(true);
    expect(afterChat.answer.assistant.chats).toBe(1);
    await exec("update chat_sessions set last_message = 'Hello?', last_message_at = now() where id = $1", [
      chat.rows[0]?.id,
    ]);
    expect((await ask()).computed).toBe(false);
    // Its rating is read.
    await exec("update chat_sessions set rating = 'good', rated_at = now() where id = $1", [chat.rows[0]?.id]);
    const afterRating = await ask();
    expect(afterRating.computed).toBe(true);
    expect(afterRating.answer.satisfaction.people.good).toBe(1);

    // A customer answered the solved ticket's survey.
    await exec("update csat_surveys set rating = 'bad', answered_at = now() where ticket_id = $1", [solving.id]);
    const afterSurvey = await ask();
    expect(afterSurvey.computed).toBe(true);
    expect(afterSurvey.answer.satisfaction.overall).toMatchObject({ answered: 1, bad: 1 });

    // The assistant answered well (not in the report: cached still), then could not answer (listed): handed off, and
    // just below LOW_CONFIDENCE (which migration 0080's trigger writes again).
    const answer = (question: string, confidence: number, handoff: boolean) =>
      exec(
        `insert into ai_answers (organization_id, channel, question, confidence, handoff, provider, latency_ms)
         values ($1, 'chat', $2, $3, $4, 'embedded', 5)`,
        [orgId, question, confidence, handoff],
      );
    await answer("Opening hours?", LOW_CONFIDENCE, false);
    expect((await ask()).computed).toBe(false);
    await answer("Can I pay by invoice?", 0.9, true);
    const afterAssistant = await ask();
    expect(afterAssistant.computed).toBe(true);
    expect(afterAssistant.answer.assistant.unanswered.map((q) => q.question)).toEqual(["Can I pay by invoice?"]);
    await answer("Do you ship to Mars?", LOW_CONFIDENCE - 0.01, false);
    const afterUnsure = await ask();
    expect(afterUnsure.computed).toBe(true);
    expect(afterUnsure.answer.assistant.unanswered.map((q) => q.question).sort()).toEqual([
      "Can I pay by invoice?",
      "Do you ship to Mars?",
    ]);

    // No write: at the due time the answer still holds; a millisecond later the due time is missed.
    clock = Date.parse(due);
    const atDue = await ask();
    expect(atDue.computed).toBe(false);
    expect(atDue.answer.sla.breached).toEqual([]);
    clock = Date.parse(due) + 1;
    const pastDue = await ask();
    expect(pastDue.computed).toBe(true);
    expect(pastDue.answer.sla.breached.map((b) => [b.number, b.kind])).toEqual([
      [waiting.ticket_number, "first_response"],
    ]);
    // Nothing is due any more: it is served again.
    expect((await ask()).computed).toBe(false);

    // The time zone changed (Settings): the days are counted there.
    const moved = await call(admin, "PUT", "/api/settings/general", { timezone: "Pacific/Kiritimati" });
    expect(moved.statusCode, moved.body).toBe(200);
    const afterZone = await ask();
    expect(afterZone.computed).toBe(true);
    expect(afterZone.answer.timezone).toBe("Pacific/Kiritimati");

    // Another organization asking the same report gets its own answer, under a key of its own organization.
    const other = await registerOrg(t.app);
    const theirs = await ask(other);
    expect(theirs.computed).toBe(true);
    expect(theirs.answer.volume.totals.created.total).toBe(0);
    expect(keys.length).toBeGreaterThan(0);
    const orgsOfKeys = keys.map((key) => (JSON.parse(key) as unknown[])[0]);
    expect(orgsOfKeys.at(-1)).toBe(other.user.organizationId);
    expect(new Set(orgsOfKeys)).toEqual(new Set([orgId, other.user.organizationId]));
  });
});
