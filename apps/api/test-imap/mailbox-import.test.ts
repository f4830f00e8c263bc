import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { AuthAnswer } from "@cove/contract/auth.ts";
import type { Mailbox } from "@cove/contract/mailboxes.ts";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAILBOX_POLL_QUEUE } from "../src/modules/email/mailbox.import.ts";
import { queryRows } from "../src/platform/db.ts";
import { addMember, bearer, createTestApp, naughtySample, registerOrg, type TestApp } from "../test/helpers.ts";
import { appendAll, customerMail, type Dovecot, startDovecot } from "./dovecot.ts";

/**
 * The mailbox import against a real Dovecot: connecting (and the messages when it cannot), 2,000 messages imported
 * with progress, skipping what must not become a ticket, pause, resume and cancel, new mail after the history, a
 * renumbered folder, and another organization seeing nothing.
 */

let dovecot: Dovecot;
let t: TestApp;
let admin: AuthAnswer;

beforeAll(async () => {
  dovecot = await startDovecot();
  t = await createTestApp({ mailboxes: { allowPrivateHosts: true, batchSize: 100, leaseSeconds: 30 } });
  admin = await registerOrg(t.app);
});
afterAll(async () => {
  await t?.close();
  await dovecot?.stop();
});

const access = (overrides: Record<string, unknown> = {}) => ({
  host: dovecot.host,
  port: dovecot.port,
  tls: false,
  user: dovecot.user,
  password: dovecot.password,
  ...overrides,
});

async function connect(token: string, body: Record<string, unknown>) {
  return t.app.inject({ method: "POST", url: "/api/email/mailboxes", headers: bearer(token), payload: body });
}

async function list(token = admin.token): Promise<Mailbox[]> {
  const res = await t.app.inject({ method: "GET", url: "/api/email/mailboxes", headers: bearer(token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().mailboxes;
}

async function mailbox(id: string, token = admin.token): Promise<Mailbox> {
  const found = (await list(token)).find((m) => m.id === id);
  if (!found) throw new Error(`mailbox ${id} not listed`);
  return found;
}

/** Polls the mailbox until done says so, keeping every state seen on the way. */
async function until(id: string, done: (m: Mailbox) => boolean, ms = 110_000, token = admin.token) {
  const seen: Mailbox[] = [];
  const end = Date.now() + ms;
  for (;;) {
    const m = await mailbox(id, token);
    seen.push(m);
    if (done(m)) return seen;
    if (Date.now() > end) throw new Error(`timed out; last state ${JSON.stringify(m)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function ticketCount(orgId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.database.db,
    sql`select count(*)::int as n from tickets where organization_id = ${orgId} and source = 'email'`,
  );
  return row?.n ?? 0;
}

const poll = () => t.app.jobs.send(t.app.db, MAILBOX_POLL_QUEUE, {});

describe("connecting a mailbox", () => {
  it("says clearly what is wrong, with a 4xx, and saves nothing", async () => {
    const cases: [Record<string, unknown>, RegExp, string][] = [
      [{ password: "not the password" }, /refused the user name or password/, "password"],
      [{ user: "nobody-here" }, /refused the user name or password/, "password"],
      [
        { port: 1 },
        /^No mail server could be reached at 127\.0\.0\.1:1: check the server name and the port\.$/,
        "host",
      ],
      [{ tls: true }, /secure \(TLS\) connection .* does not speak TLS on this port/, "tls"],
      [
        { host: "no-such-host.invalid" },
        /^No mail server could be reached at no-such-host\.invalid:\d+: check/,
        "host",
      ],
      [{ folder: "Archive/None" }, /folder Archive\/None does not exist/, "folder"],
    ];
    for (const [change, message, field] of cases) {
      const res = await connect(admin.token, access(change));
      expect(res.statusCode, JSON.stringify(change)).toBe(422);
      expect(res.json().code).toBe("MAILBOX_CONNECTION_FAILED");
      expect(res.json().error).toMatch(message);
      expect(res.json().details).toEqual([{ path: field, message: res.json().error }]);
    }
    expect(await list()).toEqual([]);
  });

  it("refuses private and local addresses unless the server allows them", async () => {
    const strict = await createTestApp();
    try {
      const other = await registerOrg(strict.app);
      const res = await strict.app.inject({
        method: "POST",
        url: "/api/email/mailboxes",
        headers: bearer(other.token),
        payload: access(),
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().error).toBe(
        `No mail server could be reached at 127.0.0.1:${dovecot.port}: check the server name and the port (Cove connects only to mail servers on the internet).`,
      );
    } finally {
      await strict.close();
    }
  });

  it("takes naughty user names and passwords to the server and answers each with the clear message", async () => {
    const sample = naughtySample()
      .filter((s) => s.trim() !== "" && !s.includes("\u0000"))
      .slice(0, 25);
    for (const s of sample) {
      for (const body of [access({ password: s }), access({ user: s.slice(0, 320) })]) {
        const res = await connect(admin.token, body);
        expect(res.statusCode, JSON.stringify(s)).toBeLessThan(500);
        if (res.statusCode === 422) expect(res.json().error).toBe("The mail server refused the user name or password.");
        else expect(res.statusCode, `${JSON.stringify(s)}: ${res.body}`).toBe(400);
      }
    }
    expect(await list()).toEqual([]);
  });
});

describe("importing a mailbox", () => {
  let id: string;

  it("files 2,000 messages, showing progress with an estimate, and never returns the password", async () => {
    await appendAll(
      dovecot,
      Array.from({ length: 2000 }, (_, i) => customerMail(i, i % 40 === 0 ? { messageId: null } : {})),
      "Support",
    );
    const res = await connect(admin.token, access({ folder: "Support" }));
    expect(res.statusCode, res.body).toBe(201);
    id = res.json().mailbox.id;
    expect(res.body).not.toContain(dovecot.password);
    expect(res.json().mailbox).toMatchObject({ host: "127.0.0.1", user: "support", folder: "Support", tls: false });

    const seen = await until(id, (m) => m.status === "watching", 800_000);
    const final = seen.at(-1) as Mailbox;
    expect(final.progress).toMatchObject({ total: 2000, imported: 2000, skipped: 0, failed: 0, remaining: 0 });
    expect(final.history_done_at).not.toBeNull();
    // On the way: part done, the rest counted, a pace and the time left.
    const midway = seen.filter((m) => m.progress.imported > 100 && m.progress.remaining > 100);
    expect(midway.length).toBeGreaterThan(0);
    for (const m of midway) expect(m.progress.total).toBe(2000);
    expect(midway.some((m) => m.progress.per_second !== null && (m.progress.eta_seconds ?? 0) > 0)).toBe(true);
    const done = seen.map((m) => m.progress.imported);
    expect(done).toEqual([...done].sort((a, b) => a - b));

    expect(await ticketCount(admin.user.organizationId)).toBe(2000);
    // Mail from a mailbox's past is acknowledged to nobody.
    await new Promise((r) => setTimeout(r, 1500));
    expect(readdirSync(t.outboxDir).filter((f) => f.endsWith(".eml"))).toEqual([]);
    // Sealed, never in clear.
    const [row] = await queryRows<{ password_sealed: string }>(
      t.database.db,
      sql`select password_sealed from email_mailboxes where id = ${id}`,
    );
    expect(row?.password_sealed).toMatch(/^v1:/);
    expect(row?.password_sealed).not.toContain(dovecot.password);
  });

  it("fetches new mail after the history, files it like received mail and acknowledges it", async () => {
    await appendAll(dovecot, [customerMail(5000, { subject: "Arrived after connecting" })], "Support");
    await poll();
    await until(id, (m) => m.progress.imported === 2001);
    expect(await ticketCount(admin.user.organizationId)).toBe(2001);
    const acknowledged = async () =>
      readdirSync(t.outboxDir)
        .filter((f) => f.endsWith(".eml"))
        .map((f) => readFileSync(path.join(t.outboxDir, f), "utf8"));
    const end = Date.now() + 20_000;
    while ((await acknowledged()).length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 200));
    const mails = await acknowledged();
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain("Arrived after connecting");
  });

  it("skips what is already filed, automatic replies and bounces, and threads replies into their ticket", async () => {
    const before = await ticketCount(admin.user.organizationId);
    await appendAll(
      dovecot,
      [
        // The same Message-ID as a message already imported (a copy in another folder).
        customerMail(7, {}),
        customerMail(6001, { headers: ["Auto-Submitted: auto-replied"], subject: "Automatic reply: away" }),
        customerMail(6002, { from: "mailer-daemon@mx.example", subject: "Undelivered Mail Returned to Sender" }),
        // A reply to message 3: a comment on its ticket, from its requester.
        customerMail(6003, {
          from: "customer-3@customers.example",
          subject: "Re: Question number 3",
          headers: ["In-Reply-To: <import-3@customers.example>"],
          body: "Any news?",
        }),
      ],
      "Support",
    );
    await poll();
    const m = (await until(id, (x) => x.progress.remaining === 0 && x.progress.skipped === 3)).at(-1) as Mailbox;
    expect(m.progress).toMatchObject({ imported: 2002, skipped: 3, failed: 0 });
    expect(await ticketCount(admin.user.organizationId)).toBe(before);
    const [comment] = await queryRows<{ body: string; subject: string }>(
      t.database.db,
      sql`select c.body, t.subject from ticket_comments c join tickets t on t.id = c.ticket_id
          where c.organization_id = ${admin.user.organizationId} and c.body = 'Any news?'`,
    );
    expect(comment?.subject).toBe("Question number 3");
  });

  it("starts again when the server renumbers the folder (UIDVALIDITY), filing nothing twice", async () => {
    const before = await ticketCount(admin.user.organizationId);
    const small = await createSmallMailbox("Renumbered", 30);
    expect(await ticketCount(admin.user.organizationId)).toBe(before + 30);

    const client = await dovecot.client();
    await client.mailboxDelete("Renumbered");
    await client.logout();
    // A second later: Dovecot's UIDVALIDITY is the folder's creation time.
    await new Promise((r) => setTimeout(r, 1100));
    await appendAll(
      dovecot,
      Array.from({ length: 35 }, (_, i) => customerMail(20_000 + i)),
      "Renumbered",
    );
    await poll();
    const m = (await until(small, (x) => x.status === "watching" && x.progress.total === 35)).at(-1) as Mailbox;
    expect(m.progress).toMatchObject({ imported: 5, skipped: 30, failed: 0, remaining: 0 });
    expect(m.last_error).toMatch(/renumbered this folder/);
    expect(await ticketCount(admin.user.organizationId)).toBe(before + 35);
  });
});

async function createSmallMailbox(folder: string, count: number, first = 20_000): Promise<string> {
  await appendAll(
    dovecot,
    Array.from({ length: count }, (_, i) => customerMail(first + i)),
    folder,
  );
  const res = await connect(admin.token, access({ folder }));
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().mailbox.id as string;
  await until(id, (m) => m.status === "watching");
  return id;
}

describe("pause, resume and cancel", () => {
  it("pauses at the next message, resumes where it stopped, and cancels for good", async () => {
    const slow = await createTestApp({ mailboxes: { allowPrivateHosts: true, batchSize: 10, leaseSeconds: 30 } });
    try {
      const owner = await registerOrg(slow.app);
      await appendAll(
        dovecot,
        Array.from({ length: 300 }, (_, i) => customerMail(30_000 + i)),
        "Paused",
      );
      const call = (url: string, method: "GET" | "POST" = "POST") =>
        slow.app.inject({ method, url, headers: bearer(owner.token) });
      const res = await slow.app.inject({
        method: "POST",
        url: "/api/email/mailboxes",
        headers: bearer(owner.token),
        payload: access({ folder: "Paused" }),
      });
      expect(res.statusCode, res.body).toBe(201);
      const id = res.json().mailbox.id as string;
      const state = async (): Promise<Mailbox> =>
        ((await call("/api/email/mailboxes", "GET")).json().mailboxes as Mailbox[])[0] as Mailbox;

      for (let i = 0; (await state()).progress.imported < 20; i++) {
        if (i > 400) throw new Error("no progress");
        await new Promise((r) => setTimeout(r, 100));
      }
      const paused = await call(`/api/email/mailboxes/${id}/pause`);
      expect(paused.statusCode, paused.body).toBe(200);
      expect(paused.json().mailbox.status).toBe("paused");
      // The message being filed as the pause came finishes or rolls back; then nothing moves.
      await new Promise((r) => setTimeout(r, 1000));
      const held = (await state()).progress;
      await new Promise((r) => setTimeout(r, 2000));
      expect((await state()).progress).toEqual(held);
      expect(held.imported).toBeLessThan(300);
      expect(held.imported + held.remaining).toBe(300);

      const resumed = await call(`/api/email/mailboxes/${id}/resume`);
      expect(resumed.json().mailbox.status).toBe("importing");
      for (let i = 0; (await state()).status !== "watching"; i++) {
        if (i > 1200) throw new Error("did not finish");
        await new Promise((r) => setTimeout(r, 100));
      }
      expect((await state()).progress).toMatchObject({ imported: 300, skipped: 0, failed: 0 });
      const [tickets] = await queryRows<{ n: number }>(
        slow.database.db,
        sql`select count(*)::int as n from tickets where organization_id = ${owner.user.organizationId}`,
      );
      expect(tickets?.n).toBe(300);

      const cancelled = await call(`/api/email/mailboxes/${id}/cancel`);
      expect(cancelled.json().mailbox.status).toBe("cancelled");
      const [row] = await queryRows<{ password_sealed: string | null }>(
        slow.database.db,
        sql`select password_sealed from email_mailboxes where id = ${id}`,
      );
      expect(row?.password_sealed).toBeNull();
      expect((await call(`/api/email/mailboxes/${id}/resume`)).statusCode).toBe(409);
      // Reconnecting takes the password again; an empty one has none to keep.
      const again = await slow.app.inject({
        method: "PUT",
        url: `/api/email/mailboxes/${id}`,
        headers: bearer(owner.token),
        payload: access({ folder: "Paused", password: "" }),
      });
      expect(again.statusCode).toBe(400);
      expect(again.json().error).toBe("Enter the password");
      const removed = await slow.app.inject({
        method: "DELETE",
        url: `/api/email/mailboxes/${id}`,
        headers: bearer(owner.token),
      });
      expect(removed.statusCode).toBe(200);
      expect((await call("/api/email/mailboxes", "GET")).json().mailboxes).toEqual([]);
    } finally {
      await slow.close();
    }
  });
});

describe("another organization", () => {
  it("sees none of the mailboxes and gets 404 for each of their routes; agents get 403", async () => {
    const [mine] = await list();
    if (!mine) throw new Error("no mailbox");
    const stranger = await registerOrg(t.app);
    expect(await list(stranger.token)).toEqual([]);
    const routes: [string, string, Record<string, unknown> | undefined][] = [
      ["PUT", `/api/email/mailboxes/${mine.id}`, access()],
      ["POST", `/api/email/mailboxes/${mine.id}/pause`, undefined],
      ["POST", `/api/email/mailboxes/${mine.id}/resume`, undefined],
      ["POST", `/api/email/mailboxes/${mine.id}/cancel`, undefined],
      ["DELETE", `/api/email/mailboxes/${mine.id}`, undefined],
    ];
    for (const [method, url, payload] of routes) {
      const res = await t.app.inject({
        method: method as "PUT",
        url,
        headers: bearer(stranger.token),
        ...(payload ? { payload } : {}),
      });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(404);
      expect(res.json()).toEqual({ error: "Mailbox not found", code: "NOT_FOUND", requestId: expect.any(String) });
    }
    expect((await mailbox(mine.id)).status).toBe(mine.status);

    const agent = await addMember(t.database, admin.user.organizationId, { role: "agent" });
    const res = await t.app.inject({ method: "GET", url: "/api/email/mailboxes", headers: bearer(agent.token) });
    expect(res.statusCode).toBe(403);
  });
});
