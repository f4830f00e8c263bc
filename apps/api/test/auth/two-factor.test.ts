import type { AuthAnswer } from "@cove/contract/auth.ts";
import { LOGIN_MAX_FAILURES } from "@cove/contract/constants.ts";
import type { SessionsAnswer, TwoFactorSetupAnswer } from "@cove/contract/security.ts";
import { eq } from "drizzle-orm";
import { generate } from "otplib";
import { describe, expect, it } from "vitest";
import { sessions, twoFactor, twoFactorChallenges } from "../../src/db/schema/auth.ts";
import { users } from "../../src/db/schema/users.ts";
import { hashPassword } from "../../src/modules/auth/passwords.ts";
import { addMember, bearer, type Caller, client, registerOrg, testAppWithMail } from "../helpers.ts";

const { t, smtp } = testAppWithMail();

const call = client(() => t.app);

// Sign-in failures are throttled per address too: each sign-in comes from an address of its own unless a test says so.
const run = Math.floor(Math.random() * 0xffff).toString(16);
let n = 0;
const nextAddress = () => `2001:db8:${run}:${(0x4000 + n++).toString(16)}::1`;
const CHROME_MAC =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const FIREFOX_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";

const post = (url: string, payload: object, opts: { ip?: string; ua?: string } = {}) =>
  t.app.inject({
    method: "POST",
    url,
    payload,
    remoteAddress: opts.ip ?? nextAddress(),
    headers: opts.ua ? { "user-agent": opts.ua } : {},
  });

/** The code of the time step `offset` steps from now (the server takes the step before and after the current one). */
const codeAt = (secret: string, offset = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + offset * 30 });

/** Turns two-factor sign-in on for a member with the previous step's code; the current and next step stay unused. */
async function enrol(who: Caller) {
  const setup = await call(who, "POST", "/api/auth/2fa/setup");
  expect(setup.statusCode, setup.body).toBe(200);
  const { secret } = setup.json() as TwoFactorSetupAnswer;
  const enabled = await call(who, "POST", "/api/auth/2fa/enable", { code: await codeAt(secret, -1) });
  expect(enabled.statusCode, enabled.body).toBe(200);
  return { secret, recoveryCodes: (enabled.json() as { recoveryCodes: string[] }).recoveryCodes };
}

async function challengeFor(email: string, password: string, opts: { ip?: string; ua?: string } = {}) {
  const res = await post("/api/auth/login", { email, password }, opts);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { twoFactorRequired?: boolean; challenge?: string; token?: string };
  expect(body.twoFactorRequired).toBe(true);
  expect(body.token).toBeUndefined();
  return body.challenge as string;
}

/** A member of the organization who can sign in with a password. */
async function memberWithPassword(orgId: string, role: "agent" | "admin" = "agent") {
  const member = await addMember(t.database, orgId, { role });
  const password = "member password 1";
  await t.database.db
    .update(users)
    .set({ passwordHash: await hashPassword(password) })
    .where(eq(users.id, member.id));
  return { ...member, password };
}

describe("turning two-factor sign-in on", () => {
  it("sets up with a secret, an otpauth address and a QR code, confirms with a code and answers 10 recovery codes", async () => {
    const org = await registerOrg(t.app);
    const setup = await call(org, "POST", "/api/auth/2fa/setup");
    expect(setup.statusCode).toBe(200);
    const { secret, otpauthUrl, qrCode } = setup.json() as TwoFactorSetupAnswer;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(otpauthUrl);
    expect(url.protocol).toBe("otpauth:");
    expect(url.host).toBe("totp");
    expect(url.searchParams.get("secret")).toBe(secret);
    expect(url.searchParams.get("issuer")).toBe("Cove");
    expect(url.searchParams.get("algorithm") ?? "SHA1").toBe("SHA1");
    expect(url.searchParams.get("digits") ?? "6").toBe("6");
    expect(url.searchParams.get("period") ?? "30").toBe("30");
    expect(decodeURIComponent(otpauthUrl)).toContain(org.user.email);
    expect(qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(qrCode.split(",")[1] ?? "", "base64").toString()).toContain("<svg");

    // The secret is stored sealed, never in clear.
    const [stored] = await t.database.db.select().from(twoFactor).where(eq(twoFactor.userId, org.user.id));
    expect(stored?.secretSealed).not.toContain(secret);
    expect(stored?.enabledAt).toBeNull();

    // Not on until confirmed: the password alone still signs in.
    const before = await post("/api/auth/login", { email: org.user.email, password: org.password });
    expect(before.json().token).toBeTruthy();

    const wrong = await call(org, "POST", "/api/auth/2fa/enable", { code: "000000" });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatch(/code is not correct/);
    const malformed = await call(org, "POST", "/api/auth/2fa/enable", { code: "<script>" });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toMatch(/6-digit code/);

    const enabled = await call(org, "POST", "/api/auth/2fa/enable", { code: await codeAt(secret) });
    expect(enabled.statusCode).toBe(200);
    const { recoveryCodes } = enabled.json() as { recoveryCodes: string[] };
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);

    const me = await call(org, "GET", "/api/auth/me");
    expect(me.json().user).toMatchObject({ twoFactorEnabled: true, twoFactorRequired: false });
    const status = await call(org, "GET", "/api/auth/2fa");
    expect(status.json()).toEqual({ enabled: true, required: false, recoveryCodesLeft: 10 });
    const again = await call(org, "POST", "/api/auth/2fa/setup");
    expect(again.statusCode).toBe(409);
  });

  it("turns off with a current code, and makes new recovery codes that replace the old ones", async () => {
    const org = await registerOrg(t.app);
    const { secret, recoveryCodes } = await enrol(org);
    const regenerated = await call(org, "POST", "/api/auth/2fa/recovery-codes", { code: await codeAt(secret) });
    expect(regenerated.statusCode).toBe(200);
    const fresh = (regenerated.json() as { recoveryCodes: string[] }).recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh.some((c) => recoveryCodes.includes(c))).toBe(false);

    const old = await post("/api/auth/login/2fa", {
      challenge: await challengeFor(org.user.email, org.password),
      recoveryCode: recoveryCodes[0],
    });
    expect(old.statusCode).toBe(401);

    const wrong = await call(org, "POST", "/api/auth/2fa/disable", { code: "123456" });
    expect(wrong.statusCode).toBe(400);
    const off = await call(org, "POST", "/api/auth/2fa/disable", { code: await codeAt(secret, 1) });
    expect(off.statusCode, off.body).toBe(200);
    const login = await post("/api/auth/login", { email: org.user.email, password: org.password });
    expect(login.json().token).toBeTruthy();
    expect((await call(org, "POST", "/api/auth/2fa/disable", { code: "123456" })).statusCode).toBe(409);
  });
});

describe("signing in with a second factor", () => {
  it("answers a challenge and no session after the password, then the token and user for a code", async () => {
    const org = await registerOrg(t.app);
    const { secret } = await enrol(org);
    const sessionsBefore = await t.database.db.select().from(sessions).where(eq(sessions.userId, org.user.id));
    const challenge = await challengeFor(org.user.email, org.password);
    const sessionsAfter = await t.database.db.select().from(sessions).where(eq(sessions.userId, org.user.id));
    expect(sessionsAfter).toHaveLength(sessionsBefore.length);

    const res = await post("/api/auth/login/2fa", { challenge, code: await codeAt(secret) }, { ua: CHROME_MAC });
    expect(res.statusCode, res.body).toBe(200);
    const { token, user } = res.json() as AuthAnswer;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(user).toMatchObject({ id: org.user.id, email: org.user.email, twoFactorEnabled: true });
    expect((await call(token, "GET", "/api/auth/me")).statusCode).toBe(200);

    // The challenge is spent by the sign-in it completed.
    const reused = await post("/api/auth/login/2fa", { challenge, code: await codeAt(secret, 1) });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toMatchObject({ code: "INVALID_TOKEN" });
  });

  it("accepts a code once: the same code for another sign-in is refused", async () => {
    const org = await registerOrg(t.app);
    const { secret } = await enrol(org);
    const code = await codeAt(secret);
    const first = await post("/api/auth/login/2fa", {
      challenge: await challengeFor(org.user.email, org.password),
      code,
    });
    expect(first.statusCode).toBe(200);
    const replayed = await post("/api/auth/login/2fa", {
      challenge: await challengeFor(org.user.email, org.password),
      code,
    });
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json().error).toMatch(/code is not correct/);
    // The code that set it up (the step before) is not taken again either.
    const earlier = await post("/api/auth/login/2fa", {
      challenge: await challengeFor(org.user.email, org.password),
      code: await codeAt(secret, -1),
    });
    expect(earlier.statusCode).toBe(401);
  });

  it("takes the same code sent twice at once only once", async () => {
    const org = await registerOrg(t.app);
    const { secret } = await enrol(org);
    const code = await codeAt(secret);
    const challenges = [
      await challengeFor(org.user.email, org.password),
      await challengeFor(org.user.email, org.password),
    ];
    const answers = await Promise.all(challenges.map((challenge) => post("/api/auth/login/2fa", { challenge, code })));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 401]);
  });

  it("accepts a recovery code once, whatever its case and dashes", async () => {
    const org = await registerOrg(t.app);
    const { recoveryCodes } = await enrol(org);
    const code = recoveryCodes[3] ?? "";
    const typed = ` ${code.toUpperCase().replace(/-/g, " ")} `;
    const ok = await post("/api/auth/login/2fa", {
      challenge: await challengeFor(org.user.email, org.password),
      recoveryCode: typed,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const again = await post("/api/auth/login/2fa", {
      challenge: await challengeFor(org.user.email, org.password),
      recoveryCode: code,
    });
    expect(again.statusCode).toBe(401);
    expect(again.json().error).toMatch(/already been used/);
    expect((await call(org, "GET", "/api/auth/2fa")).json().recoveryCodesLeft).toBe(9);
  });

  it("refuses an expired challenge, an unknown one, and a body with both kinds of code or neither", async () => {
    const org = await registerOrg(t.app);
    const { secret, recoveryCodes } = await enrol(org);
    const challenge = await challengeFor(org.user.email, org.password);
    const both = await post("/api/auth/login/2fa", {
      challenge,
      code: await codeAt(secret),
      recoveryCode: recoveryCodes[0],
    });
    expect(both.statusCode).toBe(400);
    expect((await post("/api/auth/login/2fa", { challenge })).statusCode).toBe(400);
    const unknown = await post("/api/auth/login/2fa", { challenge: "x".repeat(43), code: await codeAt(secret) });
    expect(unknown.statusCode).toBe(400);
    await t.database.db
      .update(twoFactorChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(twoFactorChallenges.userId, org.user.id));
    const expired = await post("/api/auth/login/2fa", { challenge, code: await codeAt(secret) });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().error).toMatch(/expired/);
  });

  it(`checks at most ${LOGIN_MAX_FAILURES} of 50 wrong codes sent at once, and the account stays locked`, async () => {
    const org = await registerOrg(t.app);
    const { secret } = await enrol(org);
    const challenge = await challengeFor(org.user.email, org.password);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        post("/api/auth/login/2fa", { challenge, code: String(100000 + i * 7919).slice(0, 6) }),
      ),
    );
    const statuses = answers.map((r) => r.statusCode);
    // A code that was checked answers 401 (none of these is right: 1 in 10^6 each, and a match would answer 200).
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(LOGIN_MAX_FAILURES);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(50 - LOGIN_MAX_FAILURES);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    // Codes refused before their check do not count: the next ones are checked until 10 were checked in all.
    let checked = statuses.filter((s) => s === 401).length;
    for (let i = 0; i < LOGIN_MAX_FAILURES + 2; i++) {
      const res = await post("/api/auth/login/2fa", { challenge, code: String(200000 + i) });
      if (res.statusCode === 401) checked++;
      else expect(res.statusCode).toBe(429);
    }
    expect(checked).toBe(LOGIN_MAX_FAILURES);
    // Then the right code and the right password wait for the window too.
    const right = await post("/api/auth/login/2fa", { challenge, code: await codeAt(secret) });
    expect(right.statusCode).toBe(429);
    expect((await post("/api/auth/login", { email: org.user.email, password: org.password })).statusCode).toBe(429);
  });
});

describe("the organization's requirement", () => {
  it("is for admins only, and an admin turns it on only with two-factor sign-in of their own", async () => {
    const org = await registerOrg(t.app);
    const agent = await addMember(t.database, org.user.organizationId);
    expect((await call(agent, "GET", "/api/settings/security")).statusCode).toBe(403);
    expect((await call(agent, "PUT", "/api/settings/security", { twoFactorPolicy: "off" })).statusCode).toBe(403);
    expect((await call(org, "GET", "/api/settings/security")).json()).toEqual({ twoFactorPolicy: "off" });
    const early = await call(org, "PUT", "/api/settings/security", { twoFactorPolicy: "admins" });
    expect(early.statusCode).toBe(409);
    expect((await call(org, "PUT", "/api/settings/security", { twoFactorPolicy: "<b>all</b>" })).statusCode).toBe(400);
    await enrol(org);
    const on = await call(org, "PUT", "/api/settings/security", { twoFactorPolicy: "admins" });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toEqual({ twoFactorPolicy: "admins" });
    // Another organization keeps its own setting.
    const other = await registerOrg(t.app);
    expect((await call(other, "GET", "/api/settings/security")).json()).toEqual({ twoFactorPolicy: "off" });
  });

  it("takes a member without it to enrolment after the password: every other route answers 403 until enrolled", async () => {
    const org = await registerOrg(t.app);
    await enrol(org);
    const member = await memberWithPassword(org.user.organizationId);
    expect((await call(org, "PUT", "/api/settings/security", { twoFactorPolicy: "everyone" })).statusCode).toBe(200);

    const login = await post("/api/auth/login", { email: member.email, password: member.password });
    expect(login.statusCode).toBe(200);
    const { token, user } = login.json() as AuthAnswer;
    expect(user).toMatchObject({ twoFactorEnabled: false, twoFactorRequired: true });
    for (const [method, url] of [
      ["GET", "/api/tickets"],
      ["GET", "/api/users"],
      ["GET", "/api/auth/sessions"],
      ["PUT", "/api/auth/profile"],
    ] as const) {
      const refused = await call(token, method, url, method === "PUT" ? { firstName: "X" } : undefined);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json(), url).toMatchObject({
        code: "TWO_FACTOR_ENROLMENT_REQUIRED",
        error: "Your organization requires two-factor sign-in. Set it up to continue.",
      });
    }
    expect((await call(token, "GET", "/api/auth/me")).statusCode).toBe(200);
    const { secret } = await enrol(token);
    expect((await call(token, "GET", "/api/tickets")).statusCode).toBe(200);
    // Required: it cannot be turned off.
    const off = await call(token, "POST", "/api/auth/2fa/disable", { code: await codeAt(secret) });
    expect(off.statusCode).toBe(403);
    // The next sign-in asks for the code.
    await challengeFor(member.email, member.password);
  });

  it("applies at once to a member already signed in when an admin turns it on", async () => {
    const org = await registerOrg(t.app);
    await enrol(org);
    const agent = await addMember(t.database, org.user.organizationId);
    expect((await call(agent, "GET", "/api/tickets")).statusCode).toBe(200);
    expect((await call(org, "PUT", "/api/settings/security", { twoFactorPolicy: "everyone" })).statusCode).toBe(200);
    const refused = await call(agent, "GET", "/api/tickets");
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe("TWO_FACTOR_ENROLMENT_REQUIRED");
    // Turned off again, the member is free at once.
    expect((await call(org, "PUT", "/api/settings/security", { twoFactorPolicy: "off" })).statusCode).toBe(200);
    expect((await call(agent, "GET", "/api/tickets")).statusCode).toBe(200);
  });

  it("requires nothing of agents when it is for admins only", async () => {
    const org = await registerOrg(t.app);
    await enrol(org);
    expect((await call(org, "PUT", "/api/settings/security", { twoFactorPolicy: "admins" })).statusCode).toBe(200);
    const agent = await addMember(t.database, org.user.organizationId);
    const admin = await addMember(t.database, org.user.organizationId, { role: "admin" });
    expect((await call(agent, "GET", "/api/tickets")).statusCode).toBe(200);
    expect((await call(admin, "GET", "/api/tickets")).json().code).toBe("TWO_FACTOR_ENROLMENT_REQUIRED");
  });
});

describe("an admin's reset of a member's two-factor sign-in", () => {
  it("turns it off and emails the member; agents get 403 and another organization 404", async () => {
    const org = await registerOrg(t.app);
    const member = await memberWithPassword(org.user.organizationId);
    const nothing = await call(org, "POST", `/api/users/${member.id}/2fa/reset`);
    expect(nothing.statusCode).toBe(409);
    await enrol(member);
    const agent = await addMember(t.database, org.user.organizationId);
    expect((await call(agent, "POST", `/api/users/${member.id}/2fa/reset`)).statusCode).toBe(403);
    const other = await registerOrg(t.app);
    expect((await call(other, "POST", `/api/users/${member.id}/2fa/reset`)).statusCode).toBe(404);
    expect((await call(org, "POST", "/api/users/not-an-id/2fa/reset")).statusCode).toBe(404);
    await challengeFor(member.email, member.password);

    const reset = await call(org, "POST", `/api/users/${member.id}/2fa/reset`);
    expect(reset.statusCode, reset.body).toBe(200);
    const mails = await smtp.waitFor(1, (m) => m.to.includes(member.email));
    expect(mails).toHaveLength(1);
    expect(mails[0]?.decoded).toMatch(/Two-factor sign-in was reset on your Cove account/);
    expect(mails[0]?.decoded).toMatch(/has reset two-factor sign-in on your account/);
    const login = await post("/api/auth/login", { email: member.email, password: member.password });
    expect(login.json().token).toBeTruthy();
    expect((await call(member, "GET", "/api/auth/2fa")).json()).toMatchObject({ enabled: false });
  });
});

describe("where you're signed in", () => {
  it("lists your sessions with device, address and times, the current one marked, and no one else's", async () => {
    const org = await registerOrg(t.app);
    const ip = "203.0.113.9";
    const chrome = (
      await post("/api/auth/login", { email: org.user.email, password: org.password }, { ip, ua: CHROME_MAC })
    ).json() as AuthAnswer;
    await post("/api/auth/login", { email: org.user.email, password: org.password }, { ua: FIREFOX_WINDOWS });
    const teammate = await addMember(t.database, org.user.organizationId);

    const res = await call(chrome.token, "GET", "/api/auth/sessions");
    expect(res.statusCode).toBe(200);
    const list = (res.json() as SessionsAnswer).sessions;
    expect(list).toHaveLength(3);
    const current = list.filter((s) => s.current);
    expect(current).toHaveLength(1);
    expect(current[0]).toMatchObject({ device: "Chrome on macOS", ip });
    expect(Date.parse(current[0]?.createdAt ?? "")).not.toBeNaN();
    expect(Date.parse(current[0]?.lastSeenAt ?? "")).not.toBeNaN();
    expect(list.map((s) => s.device)).toContain("Firefox on Windows");
    const theirs = (await call(teammate, "GET", "/api/auth/sessions")).json() as SessionsAnswer;
    expect(theirs.sessions).toHaveLength(1);
    expect(list.map((s) => s.id)).not.toContain(theirs.sessions[0]?.id);
  });

  it("signs out one session: its token answers 401 at once; another's session is not found", async () => {
    const org = await registerOrg(t.app);
    const other = (
      await post("/api/auth/login", { email: org.user.email, password: org.password })
    ).json() as AuthAnswer;
    // Used once, so the instance holds it in its session cache.
    expect((await call(other.token, "GET", "/api/auth/me")).statusCode).toBe(200);
    const list = (await call(org, "GET", "/api/auth/sessions")).json() as SessionsAnswer;
    const target = list.sessions.find((s) => !s.current);
    expect(target).toBeDefined();

    const teammate = await addMember(t.database, org.user.organizationId);
    const elsewhere = await registerOrg(t.app);
    expect((await call(teammate, "DELETE", `/api/auth/sessions/${target?.id}`)).statusCode).toBe(404);
    expect((await call(elsewhere, "DELETE", `/api/auth/sessions/${target?.id}`)).statusCode).toBe(404);
    expect((await call(org, "DELETE", "/api/auth/sessions/<script>")).statusCode).toBe(404);
    expect((await call(other.token, "GET", "/api/auth/me")).statusCode).toBe(200);

    const revoked = await call(org, "DELETE", `/api/auth/sessions/${target?.id}`);
    expect(revoked.statusCode).toBe(200);
    expect((await call(other.token, "GET", "/api/auth/me")).statusCode).toBe(401);
    expect((await call(other.token, "GET", "/api/tickets")).statusCode).toBe(401);
    expect((await call(org, "GET", "/api/auth/me")).statusCode).toBe(200);
  });

  it("signs out everywhere else, keeping this session", async () => {
    const org = await registerOrg(t.app);
    const a = (await post("/api/auth/login", { email: org.user.email, password: org.password })).json() as AuthAnswer;
    const b = (await post("/api/auth/login", { email: org.user.email, password: org.password })).json() as AuthAnswer;
    expect((await call(a.token, "GET", "/api/auth/me")).statusCode).toBe(200);
    const res = await call(org, "DELETE", "/api/auth/sessions");
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe("Signed out of 2 other sessions.");
    expect((await call(a.token, "GET", "/api/auth/me")).statusCode).toBe(401);
    expect((await call(b.token, "GET", "/api/auth/me")).statusCode).toBe(401);
    expect((await call(org, "GET", "/api/auth/me")).statusCode).toBe(200);
  });

  it("lets an admin sign a member out everywhere; agents get 403 and another organization 404", async () => {
    const org = await registerOrg(t.app);
    const member = await addMember(t.database, org.user.organizationId);
    const agent = await addMember(t.database, org.user.organizationId);
    expect((await call(member, "GET", "/api/tickets")).statusCode).toBe(200);
    expect((await call(agent, "DELETE", `/api/users/${member.id}/sessions`)).statusCode).toBe(403);
    const other = await registerOrg(t.app);
    expect((await call(other, "DELETE", `/api/users/${member.id}/sessions`)).statusCode).toBe(404);
    expect((await call(member, "GET", "/api/tickets")).statusCode).toBe(200);
    const res = await call(org, "DELETE", `/api/users/${member.id}/sessions`);
    expect(res.statusCode).toBe(200);
    expect((await call(member, "GET", "/api/tickets")).statusCode).toBe(401);
    expect((await call(agent, "GET", "/api/tickets")).statusCode).toBe(200);
  });

  it("shows a hostile User-Agent as plain text and never fails on it", async () => {
    const org = await registerOrg(t.app);
    const ua = `<img src=x onerror=alert(1)> ${"A".repeat(2000)}`;
    const signedIn = await post("/api/auth/login", { email: org.user.email, password: org.password }, { ua });
    expect(signedIn.statusCode).toBe(200);
    const list = (await call(org, "GET", "/api/auth/sessions")).json() as SessionsAnswer;
    for (const s of list.sessions) expect(s.device.length).toBeLessThanOrEqual(100);
  });
});

describe("bearer checks on the new routes", () => {
  it("answers 401 without a session", async () => {
    for (const [method, url] of [
      ["GET", "/api/auth/2fa"],
      ["POST", "/api/auth/2fa/setup"],
      ["GET", "/api/auth/sessions"],
      ["DELETE", "/api/auth/sessions"],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: bearer("x".repeat(43)) });
      expect(res.statusCode, url).toBe(401);
    }
  });
});

describe("two-factor sign-in and sessions in the audit log", () => {
  it("records turning it on, new recovery codes, a wrong code, a reset, the policy and sign-outs, each by who did it", async () => {
    const org = await registerOrg(t.app);
    const member = await memberWithPassword(org.user.organizationId);
    const { secret } = await enrol(org);
    const codes = await call(org, "POST", "/api/auth/2fa/recovery-codes", { code: await codeAt(secret, 0) });
    expect(codes.statusCode, codes.body).toBe(200);
    const challenge = await challengeFor(org.user.email, org.password);
    expect((await post("/api/auth/login/2fa", { challenge, code: "000000" })).statusCode).toBe(401);
    const policy = await call(org, "PUT", "/api/settings/security", { twoFactorPolicy: "admins" });
    expect(policy.statusCode, policy.body).toBe(200);
    const memberSession = await post("/api/auth/login", { email: member.email, password: member.password });
    const memberToken = memberSession.json().token as string;
    const { secret: memberSecret } = await enrol(memberToken);
    expect(memberSecret).toBeTruthy();
    expect((await call(org, "POST", `/api/users/${member.id}/2fa/reset`)).statusCode).toBe(200);
    expect((await call(org, "DELETE", `/api/users/${member.id}/sessions`)).statusCode).toBeLessThan(300);
    expect((await call(org, "DELETE", "/api/auth/sessions")).statusCode).toBeLessThan(300);

    const log = await call(org, "GET", "/api/audit-log?limit=200");
    expect(log.statusCode, log.body).toBe(200);
    type Entry = { action: string; actor: { id: string }; object: { id: string | null } | null; details: object };
    const entries = (log.json() as { entries: Entry[] }).entries;
    const one = (action: string, actorId: string) => {
      const found = entries.filter((e) => e.action === action && e.actor.id === actorId);
      expect(found, action).toHaveLength(1);
      return found[0] as Entry;
    };
    one("two_factor.enabled", org.user.id);
    one("two_factor.enabled", member.id);
    one("two_factor.recovery_codes_regenerated", org.user.id);
    expect(one("auth.sign_in_failed", org.user.id).details).toMatchObject({ reason: "wrong_code" });
    expect(one("settings.security_changed", org.user.id).details).toMatchObject({ two_factor_policy: "admins" });
    expect(one("two_factor.reset", org.user.id).object?.id).toBe(member.id);
    expect(one("member.signed_out_everywhere", org.user.id).object?.id).toBe(member.id);
    one("session.others_revoked", org.user.id);
    expect(log.body).not.toContain(secret);
    const verify = await call(org, "GET", "/api/audit-log/verify");
    expect(verify.json()).toMatchObject({ intact: true });
  });
});
