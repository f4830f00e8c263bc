import { createRequire } from "node:module";
import type { UserListItem } from "@cove/contract/users.ts";
import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { bearer, createTestApp, registerOrg, testAppWithMail, unique } from "../helpers.ts";
import { linkToken } from "../smtp.ts";

/**
 * The job queue as a user of the team screen meets it: an invitation is answered at once, and its email arrives even
 * when the mail server is slow or refuses at first.
 */

const { t, smtp } = testAppWithMail({ mailRetryDelaySeconds: 1 });
beforeEach(() => {
  smtp.release();
  smtp.refuseNext(0);
});

const inviteAs = (token: string, email: string, app = t) =>
  app.app.inject({
    method: "POST",
    url: "/api/users/invite",
    headers: bearer(token),
    payload: { email, firstName: "Katherine", lastName: "Johnson" },
  });

const jobRows = (email: string, app = t) =>
  app.database.executeSql(`select state, retry_count, data from ${app.jobsSchema}.job where data->>'to' = $1`, [email]);

/** The message's job once it has reached state (pg-boss records the outcome just after the handler returns). */
async function jobOnceIn(state: string, email: string, app = t) {
  for (let i = 0; i < 300; i++) {
    const { rows } = await jobRows(email, app);
    if (rows[0]?.state === state) return rows;
    await new Promise((r) => setTimeout(r, 50));
  }
  return (await jobRows(email, app)).rows;
}

describe("mail through the job queue", () => {
  it("still delivers the invitation after the mail server refuses it twice", async () => {
    const admin = await registerOrg(t.app);
    const email = `katherine-${unique()}@example.com`;
    smtp.refuseNext(2);
    const res = await inviteAs(admin.token, email);
    expect(res.statusCode).toBe(201);
    const [mail] = await smtp.waitFor(1, (m) => m.to.includes(email), 20_000);
    expect(mail).toBeDefined();
    expect(linkToken(mail ?? { to: [], raw: "", decoded: "" }, "/accept-invite")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await jobOnceIn("completed", email)).toEqual([
      expect.objectContaining({ state: "completed", retry_count: 2 }),
    ]);
  });

  it("answers the request while a slow mail server still holds the message", async () => {
    const admin = await registerOrg(t.app);
    const email = `held-${unique()}@example.com`;
    smtp.hold();
    const res = await inviteAs(admin.token, email);
    expect(res.statusCode).toBe(201);
    expect((res.json().user as UserListItem).status).toBe("invited");
    // The team list answers too while the worker waits on the mail server.
    const list = await t.app.inject({ method: "GET", url: "/api/users", headers: bearer(admin.token) });
    expect(list.statusCode).toBe(200);
    expect(smtp.inbox.filter((m) => m.to.includes(email))).toHaveLength(0);
    smtp.release();
    expect(await smtp.waitFor(1, (m) => m.to.includes(email))).toHaveLength(1);
  });

  it("keeps no single-use link in the queue's tables once the message is sent", async () => {
    const admin = await registerOrg(t.app);
    const email = `scrub-${unique()}@example.com`;
    await inviteAs(admin.token, email);
    const [mail] = await smtp.waitFor(1, (m) => m.to.includes(email));
    const token = linkToken(mail ?? { to: [], raw: "", decoded: "" }, "/accept-invite");
    const rows = await jobOnceIn("completed", email);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.data).toEqual({ to: email, subject: expect.stringContaining("You're invited to join") });
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it("sends nothing for work that rolled back", async () => {
    const ghost = `ghost-${unique()}@example.com`;
    await expect(
      t.database.db.transaction(async (tx) => {
        await t.app.jobs.sendMail(tx, { to: ghost, subject: "Never sent", text: "x" });
        throw new Error("the request failed after queueing its mail");
      }),
    ).rejects.toThrow("the request failed");
    const after = `after-${unique()}@example.com`;
    await t.app.jobs.sendMail(t.database.db, { to: after, subject: "Sent", text: "y" });
    await smtp.waitFor(1, (m) => m.to.includes(after));
    expect(smtp.inbox.filter((m) => m.to.includes(ghost))).toHaveLength(0);
    expect((await jobRows(ghost)).rows).toHaveLength(0);
  });

  it("sends the mail of an instance that died holding its job, within about a minute", async () => {
    const orphan = `orphan-${unique()}@example.com`;
    // The job as a killed instance leaves it: taken (active) over a minute ago, never finished.
    await t.database.db.transaction(async (tx) => {
      await t.app.jobs.sendMail(tx, { to: orphan, subject: "Held by a dead instance", text: "z" });
      await tx.execute(
        sql.raw(
          `update ${t.jobsSchema}.job set state = 'active', started_on = now() - interval '2 minutes' where data->>'to' = '${orphan}'`,
        ),
      );
    });
    const [mail] = await smtp.waitFor(1, (m) => m.to.includes(orphan), 45_000);
    expect(mail?.decoded).toContain("z");
    expect(await jobOnceIn("completed", orphan)).toEqual([
      expect.objectContaining({ state: "completed", retry_count: 1 }),
    ]);
  }, 60_000);

  it("serves many requests at once while the worker runs, without deadlock on one connection", async () => {
    const admin = await registerOrg(t.app);
    await t.database.executeSql("update organizations set plan = 'business' where id = $1", [
      admin.user.organizationId,
    ]);
    const emails = Array.from({ length: 15 }, () => `crowd-${unique()}@example.com`);
    const results = await Promise.all([
      ...emails.map((email) => inviteAs(admin.token, email)),
      ...emails.map(() => t.app.inject({ method: "GET", url: "/api/users", headers: bearer(admin.token) })),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([...emails.map(() => 201), ...emails.map(() => 200)]);
    const delivered = await smtp.waitFor(emails.length, (m) => emails.some((e) => m.to.includes(e)), 30_000);
    expect(delivered).toHaveLength(emails.length);
  });
});

describe("when the instance shuts down while a job runs", () => {
  it("waits the grace period, then hands the job back to the queue for a retry (by this instance or another)", async () => {
    const stopping = await createTestApp({ smtpUrl: smtp.url, mailRetryDelaySeconds: 1, jobsStopTimeoutMs: 1_000 });
    try {
      const admin = await registerOrg(stopping.app);
      const email = `handed-back-${unique()}@example.com`;
      smtp.hold();
      expect((await inviteAs(admin.token, email, stopping)).statusCode).toBe(201);
      // The worker has the message and waits on the mail server.
      expect((await jobOnceIn("active", email, stopping))[0]?.state).toBe("active");
      await stopping.app.jobs.stop();
      // Failed back as pg-boss does on a graceful stop's timeout: waiting for its retry, which any instance may take.
      const { rows } = await stopping.database.executeSql(
        `select state, output::text as message from ${stopping.jobsSchema}.job where data->>'to' = $1`,
        [email],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]?.state).toBe("retry");
      expect(String(rows[0]?.message)).toContain("pg-boss shut down while active");
    } finally {
      smtp.release();
      await stopping.close();
    }
  });
});

describe("when retries run out", () => {
  it("marks the job failed and drops its body", async () => {
    const local = await createTestApp({ smtpUrl: smtp.url, mailRetryDelaySeconds: 1, mailRetryLimit: 1 });
    try {
      const email = `bounce-${unique()}@example.com`;
      smtp.refuseNext(2);
      await local.app.jobs.sendMail(local.database.db, {
        to: email,
        subject: "Doomed",
        text: "link",
        html: "<p>link</p>",
      });
      expect(await jobOnceIn("failed", email, local)).toEqual([
        { state: "failed", retry_count: 1, data: { to: email, subject: "Doomed" } },
      ]);
      expect(smtp.inbox.filter((m) => m.to.includes(email))).toHaveLength(0);
    } finally {
      await local.close();
    }
  });
});

describe("statements a worker sends after the queue stopped", () => {
  it("answer as if they changed nothing, in the shape pg-boss reads: a job command's count, a fetch's rows", async () => {
    // pg-boss's own statement texts (its plans module has no types).
    const plans = createRequire(import.meta.url)("pg-boss/src/plans.js") as Record<string, (...a: unknown[]) => string>;
    const { notRun } = await import("../../src/platform/jobs.ts");
    for (const command of ["completeJobs", "failJobsById", "cancelJobs", "resumeJobs"] as const) {
      const text = plans[command]?.("pgboss") ?? "";
      expect(text, command).not.toBe("");
      const result = notRun(text);
      // pg-boss maps it as parseInt(rows[0].count): no row would throw in the worker (an unhandled rejection).
      expect(Number.parseInt(String(result.rows[0]?.count), 10), command).toBe(0);
    }
    const fetch = plans.fetchNextJob?.("pgboss");
    const fetched = notRun(typeof fetch === "string" ? fetch : String((fetch as unknown as () => string)?.()));
    expect(fetched.rows).toEqual([]);
  });
});
