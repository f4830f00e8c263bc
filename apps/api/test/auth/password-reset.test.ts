import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { AuthAnswer } from "@cove/contract/auth.ts";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { passwordResetTokens } from "../../src/db/schema/auth.ts";
import { hashToken } from "../../src/platform/auth.ts";
import { bearer, createTestApp, errorAnswer, registerOrg, testAppWithMail, unique } from "../helpers.ts";

/** The reset link of a message, after undoing the quoted-printable encoding a mail client would undo. */
function resetToken(raw: string): string {
  const body = raw
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  const match = /http:\/\/cove\.test\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(body);
  if (!match?.[1]) throw new Error(`no reset link in:\n${raw}`);
  return match[1];
}

const { t, smtp } = testAppWithMail();
beforeEach(() => {
  smtp.inbox.length = 0;
});

const forgot = (email: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/auth/forgot-password",
    payload: { email },
    remoteAddress: `192.0.2.${Math.floor(Math.random() * 250) + 1}`,
  });
const reset = (token: string, password: string) =>
  t.app.inject({ method: "POST", url: "/api/auth/reset-password", payload: { token, password } });
const login = (email: string, password: string) =>
  t.app.inject({ method: "POST", url: "/api/auth/login", payload: { email, password } });

/** The mail goes out from the job queue's worker, shortly after the request has answered. */
async function waitForMail(count = 1) {
  for (let i = 0; i < 500 && smtp.inbox.length < count; i++) await new Promise((r) => setTimeout(r, 20));
  return smtp.inbox;
}

describe("forgot and reset password", () => {
  it("emails a link that sets a new password once, and ends every session", async () => {
    const { user, token: oldSession, password } = await registerOrg(t.app);
    const res = await forgot(user.email);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toMatch(/If an account exists for that email/);

    const [mail] = await waitForMail();
    expect(mail?.to).toEqual([user.email]);
    expect(mail?.raw).toMatch(/Subject: Reset your Cove password/);
    const token = resetToken(mail?.raw ?? "");

    const done = await reset(token, "a brand new secret");
    expect(done.statusCode).toBe(200);
    expect(done.json().message).toMatch(/password has been reset/);

    expect((await t.app.inject({ method: "GET", url: "/api/auth/me", headers: bearer(oldSession) })).statusCode).toBe(
      401,
    );
    expect((await login(user.email, password)).statusCode).toBe(401);
    const fresh = await login(user.email, "a brand new secret");
    expect(fresh.statusCode).toBe(200);
    expect((fresh.json() as AuthAnswer).user.id).toBe(user.id);

    const again = await reset(token, "another new secret");
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(
      errorAnswer("This password reset link is invalid or has expired. Please request a new one.", "INVALID_TOKEN"),
    );
  });

  it("says whether a link still works without using it: fresh yes (twice), used, expired or unknown no", async () => {
    const { user } = await registerOrg(t.app);
    await forgot(user.email);
    const token = resetToken((await waitForMail())[0]?.raw ?? "");
    const check = (value: string) =>
      t.app.inject({ method: "POST", url: "/api/auth/reset-password/check", payload: { token: value } });
    for (let i = 0; i < 2; i++) {
      const ok = await check(token);
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().message).toMatch(/valid/);
    }
    const invalid = errorAnswer(
      "This password reset link is invalid or has expired. Please request a new one.",
      "INVALID_TOKEN",
    );
    expect((await check("no-such-token")).json()).toEqual(invalid);
    expect((await check("")).statusCode).toBe(400);
    // Checking did not spend it: the password is set with it, and then it is used.
    expect((await reset(token, "a brand new secret")).statusCode).toBe(200);
    const used = await check(token);
    expect(used.statusCode).toBe(400);
    expect(used.json()).toEqual(invalid);
    await forgot(user.email);
    const second = resetToken((await waitForMail(2))[1]?.raw ?? "");
    await t.database.db
      .update(passwordResetTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResetTokens.tokenHash, hashToken(second)));
    expect((await check(second)).json()).toEqual(invalid);
  });

  it("answers 200 for an unknown email and sends nothing", async () => {
    const res = await forgot(`nobody-${unique()}@example.com`);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toMatch(/If an account exists for that email/);
    await new Promise((r) => setTimeout(r, 100));
    expect(smtp.inbox).toHaveLength(0);
  });

  it("does the same work for a known and an unknown email before answering: one job, no lookup, no token", async () => {
    const { user } = await registerOrg(t.app);
    // Every call to the database and the queue, with who made it: the request (forgotPassword) or the job's worker.
    const calls: { step: string; stack: string }[] = [];
    const db = t.app.db as unknown as Record<string, (...args: unknown[]) => unknown>;
    const jobs = t.app.jobs as unknown as Record<string, (...args: unknown[]) => unknown>;
    const spied = [
      ["db", db, ["select", "insert", "update", "delete", "execute", "transaction"]],
      ["jobs", jobs, ["send", "sendMail"]],
    ] as const;
    const originals: [Record<string, unknown>, string, unknown][] = [];
    for (const [label, target, names] of spied) {
      for (const name of names) {
        const original = target[name];
        if (typeof original !== "function") throw new Error(`no ${name} to spy on`);
        originals.push([target, name, original]);
        target[name] = function (this: unknown, ...args: unknown[]) {
          const queue = name === "send" ? ` ${(args[1] as { name: string }).name}` : "";
          calls.push({ step: `${label}.${name}${queue}`, stack: new Error().stack ?? "" });
          return original.apply(this, args);
        };
      }
    }
    const byRequest = () => calls.filter((c) => /\bforgotPassword\b/.test(c.stack)).map((c) => c.step);
    try {
      const known = await forgot(user.email);
      const knownSteps = byRequest();
      calls.length = 0;
      const unknown = await forgot(`nobody-${unique()}@example.com`);
      const unknownSteps = byRequest();
      expect([known.statusCode, known.json()]).toEqual([unknown.statusCode, unknown.json()]);
      // The job's insert, run through the database handle: the request's only statement.
      expect(knownSteps).toEqual(["jobs.send password-reset", "db.execute"]);
      expect(unknownSteps).toEqual(knownSteps);
      // The job then finds the account and mails its link; the unknown address gets nothing.
      const mails = await waitForMail();
      expect(mails.map((m) => m.to)).toEqual([[user.email]]);
      expect(calls.some((c) => /\bsendPasswordReset\b/.test(c.stack))).toBe(true);
    } finally {
      for (const [target, name, original] of originals) target[name] = original;
    }
  });

  it("refuses a link older than one hour", async () => {
    const { user } = await registerOrg(t.app);
    await forgot(user.email);
    const token = resetToken((await waitForMail())[0]?.raw ?? "");
    await t.database.db
      .update(passwordResetTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResetTokens.tokenHash, hashToken(token)));
    const res = await reset(token, "a brand new secret");
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe("INVALID_TOKEN");
  });

  it("stores the reset token only as a hash, valid for one hour", async () => {
    const { user } = await registerOrg(t.app);
    await forgot(user.email);
    const token = resetToken((await waitForMail())[0]?.raw ?? "");
    const rows = await t.database.db
      .select({ tokenHash: passwordResetTokens.tokenHash, expiresAt: passwordResetTokens.expiresAt })
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.tokenHash).toBe(hashToken(token));
    const minutes = ((rows[0]?.expiresAt.getTime() ?? 0) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(59);
    expect(minutes).toBeLessThanOrEqual(60);
  });

  it("spends every outstanding link of the user when one is used", async () => {
    const { user } = await registerOrg(t.app);
    await forgot(user.email);
    await forgot(user.email);
    const mails = await waitForMail(2);
    const [first, second] = mails.map((m) => resetToken(m.raw));
    expect((await reset(second ?? "", "a brand new secret")).statusCode).toBe(200);
    expect((await reset(first ?? "", "yet another secret")).statusCode).toBe(400);
  });

  it("validates the new password and the token", async () => {
    const short = await reset("abc", "short");
    expect(short.statusCode).toBe(400);
    expect(short.json().error).toBe("Password must be at least 8 characters long");
    const bogus = await reset("not-a-real-token-at-all", "long enough password");
    expect(bogus.statusCode).toBe(400);
    expect(bogus.json().code).toBe("INVALID_TOKEN");
  });
});

describe("without SMTP_URL", () => {
  it("writes the message as an .eml file in the outbox", async () => {
    const local = await createTestApp();
    try {
      const { user } = await registerOrg(local.app);
      await local.app.inject({ method: "POST", url: "/api/auth/forgot-password", payload: { email: user.email } });
      const emlFiles = () => readdirSync(local.outboxDir).filter((f) => f.endsWith(".eml"));
      for (let i = 0; i < 500 && emlFiles().length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      const files = emlFiles();
      expect(files).toHaveLength(1);
      const raw = readFileSync(path.join(local.outboxDir, files[0] ?? ""), "utf8");
      expect(raw).toMatch(/Subject: Reset your Cove password/);
      expect(raw).toContain(`To: ${user.email}`);
      expect(resetToken(raw)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    } finally {
      await local.close();
    }
  });
});
