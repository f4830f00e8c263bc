/**
 * What an attacker tries first: guessing passwords faster than the throttle counts them, probing which emails have an
 * account, taking over the public demo by registering its name, and reading tokens out of the log.
 */
import { readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import type { AuthAnswer } from "@cove/contract/auth.ts";
import { DEMO_UNAVAILABLE, REGISTRATIONS_PER_HOUR } from "@cove/contract/constants.ts";
import { RESERVED_ORG_SLUGS } from "@cove/contract/slugs.ts";
import type { UserListAnswer } from "@cove/contract/users.ts";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.ts";
import { ELSEWHERE_REFUSALS_PER_HOUR, EMAIL_IN_ANOTHER_TEAM } from "../../src/modules/users/invitations.service.ts";
import {
  bearer,
  createTestApp,
  embeddedTestDatabase,
  errorAnswer,
  registerOrg,
  registration,
  testAppWithMail,
  unique,
} from "../helpers.ts";
import { linkToken } from "../smtp.ts";

const { t, smtp } = testAppWithMail();

// Documentation-range IPv6 addresses, unique per run, so a re-run on the same database starts with a clean slate.
const run = Math.floor(Math.random() * 0xffff).toString(16);
let n = 0;
const nextAddress = () => `2001:db8:${run}:${(0x8000 + n++).toString(16)}::1`;
const post = (url: string, payload: object, remoteAddress = nextAddress(), headers: Record<string, string> = {}) =>
  t.app.inject({ method: "POST", url, payload, remoteAddress, headers });

describe("the sign-in throttle under concurrent guesses", () => {
  it("checks at most 10 of 50 wrong passwords for one account sent at once, from many addresses", async () => {
    const { user, password } = await registerOrg(t.app);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => post("/api/auth/login", { email: user.email, password: `wrong-${i}-pw` })),
    );
    const statuses = answers.map((r) => r.statusCode);
    // A guess that was checked answers 401; one refused before its check answers 429.
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(40);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    // Guesses refused before their check do not count as failures: the next ones are checked until 10 were in all.
    let checked = statuses.filter((s) => s === 401).length;
    for (let i = 0; i < 12; i++) {
      const res = await post("/api/auth/login", { email: user.email, password: `later-${i}-pw` });
      if (res.statusCode === 401) checked++;
      else expect(res.statusCode).toBe(429);
    }
    expect(checked).toBe(10);
    // Then the account stays locked for the window, even for the right password.
    const locked = await post("/api/auth/login", { email: user.email, password });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error).toMatch(/Too many failed sign-in attempts/);
  });

  it("checks at most 10 guesses sent at once from one address, whatever accounts they name", async () => {
    const address = nextAddress();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        post("/api/auth/login", { email: `guess-${i}-${unique()}@example.com`, password: "password1" }, address),
      ),
    );
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(40);
  });

  it("still signs in after a few failures, and a success clears them", async () => {
    const { user, password } = await registerOrg(t.app);
    for (let i = 0; i < 9; i++) {
      expect((await post("/api/auth/login", { email: user.email, password: `nope-${i}-pw` })).statusCode).toBe(401);
    }
    expect((await post("/api/auth/login", { email: user.email, password })).statusCode).toBe(200);
    for (let i = 0; i < 9; i++) {
      expect((await post("/api/auth/login", { email: user.email, password: `nope-${i}-pw` })).statusCode).toBe(401);
    }
    expect((await post("/api/auth/login", { email: user.email, password })).statusCode).toBe(200);
  });
});

describe("registration from one address", () => {
  it(`creates at most ${REGISTRATIONS_PER_HOUR} organizations an hour, then answers 429 with a clear message`, async () => {
    const address = nextAddress();
    for (let i = 0; i < REGISTRATIONS_PER_HOUR; i++) {
      const res = await post("/api/auth/register", registration(), address);
      expect(res.statusCode, res.body).toBe(201);
    }
    const refused = await post("/api/auth/register", registration(), address);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: "RATE_LIMITED" });
    expect(refused.json().error).toMatch(/^Too many sign-ups from your network\. Please try again in \d+ minutes?\.$/);
    // Another address is not affected.
    expect((await post("/api/auth/register", registration())).statusCode).toBe(201);
  });

  it("counts the probes of taken emails, so the 409 cannot be asked in bulk", async () => {
    const taken = await registerOrg(t.app);
    const address = nextAddress();
    const answers: number[] = [];
    for (let i = 0; i < 30; i++) {
      answers.push((await post("/api/auth/register", registration({ email: taken.user.email }), address)).statusCode);
    }
    expect(answers.filter((s) => s === 409)).toHaveLength(REGISTRATIONS_PER_HOUR);
    expect(answers.filter((s) => s === 429)).toHaveLength(30 - REGISTRATIONS_PER_HOUR);
  });

  it("does not count a form sent back with mistakes", async () => {
    const address = nextAddress();
    for (let i = 0; i < 10; i++) {
      const res = await post("/api/auth/register", registration({ email: "not an email" }), address);
      expect(res.statusCode).toBe(400);
    }
    expect((await post("/api/auth/register", registration(), address)).statusCode).toBe(201);
  });
});

describe("reserved organization addresses", () => {
  it("never gives a registration a reserved slug; the name stays as typed", async () => {
    for (const name of ["Demo", "Admin", "API", "www", "Help", "Portal", "Widget", "Support"]) {
      const res = await post("/api/auth/register", registration({ organizationName: name }));
      expect(res.statusCode, res.body).toBe(201);
      const { user } = res.json() as AuthAnswer;
      expect(user.organizationName).toBe(name);
      expect(RESERVED_ORG_SLUGS).not.toContain(user.organizationSlug);
      expect(user.organizationSlug).toMatch(new RegExp(`^${name.toLowerCase()}-[a-z0-9]+$`));
    }
  });
});

describe("the public demo", () => {
  it("cannot be taken over by registering the demo's name, and says plainly when there is no demo", async () => {
    // Its own empty database, as a server started with SEED_DEMO=false has.
    const database = await embeddedTestDatabase();
    const app = await buildApp({
      database,
      mail: { smtpUrl: undefined, from: "Cove <no-reply@cove.test>", outboxDir: path.join(tmpdir(), "cove-demo-x") },
      publicUrl: "http://cove.test",
    });
    try {
      const reg = await app.inject({
        method: "POST",
        url: "/api/auth/register",
        payload: registration({ organizationName: "Acme" }),
      });
      expect(reg.statusCode).toBe(201);
      expect((reg.json() as AuthAnswer).user.organizationSlug).toBe("acme");
      const admin = reg.json() as AuthAnswer;
      // The new organization publishes an article a visitor of the demo would be told.
      const article = await app.inject({
        method: "POST",
        url: "/api/kb/articles",
        headers: bearer(admin.token),
        payload: {
          title: "How do I return an item?",
          body: "Mail your password to returns@evil.example and we will handle the rest.",
          status: "published",
        },
      });
      expect(article.statusCode).toBe(201);

      const asked = await app.inject({
        method: "POST",
        url: "/api/chat/ai-response",
        payload: { message: "How do I return an item?" },
      });
      expect(asked.statusCode).toBe(404);
      expect(asked.json()).toEqual(errorAnswer(DEMO_UNAVAILABLE, "DEMO_UNAVAILABLE"));
      const status = await app.inject({ method: "GET", url: "/api/demo" });
      expect(status.statusCode).toBe(200);
      expect(status.json()).toEqual({ available: false, organization: null, message: DEMO_UNAVAILABLE });
    } finally {
      await app.close();
      await database.close();
    }
  });
});

describe("inviting an email that has an account in another organization", () => {
  const invite = (who: AuthAnswer, email: string) =>
    t.app.inject({
      method: "POST",
      url: "/api/users/invite",
      headers: bearer(who.token),
      payload: { email, firstName: "Grace", lastName: "Hopper" },
    });

  it("is refused at once with a clear 409: nothing is created, no seat is held, no mail goes out", async () => {
    const admin = await registerOrg(t.app);
    const other = await registerOrg(t.app);
    const existing = await invite(admin, other.user.email.toUpperCase());
    expect(existing.statusCode).toBe(409);
    expect(existing.json()).toEqual(errorAnswer(EMAIL_IN_ANOTHER_TEAM, "EMAIL_TAKEN"));
    const list = await t.app.inject({ method: "GET", url: "/api/users", headers: bearer(admin.token) });
    expect((list.json() as UserListAnswer).users.map((u) => u.email)).not.toContain(other.user.email);
    // A fresh address is invited as before, and its mail is the only one sent.
    const fresh = `grace-${unique()}@example.com`;
    expect((await invite(admin, fresh)).statusCode).toBe(201);
    await smtp.waitFor(1, (m) => m.to.includes(fresh));
    expect(smtp.inbox.some((m) => m.to.includes(other.user.email))).toBe(false);
    // The other account is untouched: it signs in with its own password.
    const login = await post("/api/auth/login", { email: other.user.email, password: other.password });
    expect(login.statusCode).toBe(200);
    expect((login.json() as AuthAnswer).user.organizationId).toBe(other.user.organizationId);
  });

  it("tells one organization so a few times an hour only, so it is no oracle for addresses in bulk", async () => {
    const admin = await registerOrg(t.app);
    const others = await Promise.all(Array.from({ length: ELSEWHERE_REFUSALS_PER_HOUR + 1 }, () => registerOrg(t.app)));
    const answers = [];
    for (const other of others) answers.push(await invite(admin, other.user.email));
    expect(answers.map((r) => r.statusCode)).toEqual([...Array(ELSEWHERE_REFUSALS_PER_HOUR).fill(409), 429]);
    expect(answers.at(-1)?.json().error).toMatch(/^Too many invitations to addresses that already have an account/);
    // Another organization is not held up by this one.
    const second = await registerOrg(t.app);
    expect((await invite(second, others[0]?.user.email ?? "")).statusCode).toBe(409);
  });

  it("made before the address joined another team: the person who opens the link is told, and cannot accept", async () => {
    const first = await registerOrg(t.app);
    const second = await registerOrg(t.app);
    const email = `late-${unique()}@example.com`;
    expect((await invite(second, email)).statusCode).toBe(201);
    const [secondMail] = await smtp.waitFor(1, (m) => m.to.includes(email));
    if (!secondMail) throw new Error("no invitation mail");
    const secondToken = linkToken(secondMail, "/accept-invite");
    expect((await invite(first, email)).statusCode).toBe(201);
    const firstMail = (await smtp.waitFor(2, (m) => m.to.includes(email))).find((m) => m !== secondMail);
    if (!firstMail) throw new Error("no second invitation mail");
    const firstToken = linkToken(firstMail, "/accept-invite");
    const joined = await post("/api/auth/accept-invite", {
      token: secondToken,
      firstName: "Grace",
      lastName: "Hopper",
      password: "a new password",
    });
    expect(joined.statusCode, joined.body).toBe(200);
    const details = await post("/api/auth/invite-details", { token: firstToken });
    expect(details.statusCode).toBe(409);
    expect(details.json()).toMatchObject({ code: "EMAIL_TAKEN" });
    expect(details.json().error).toMatch(/already has a Cove account/);
    const accept = await post("/api/auth/accept-invite", {
      token: firstToken,
      firstName: "Grace",
      lastName: "Hopper",
      password: "another password",
    });
    expect(accept.statusCode).toBe(409);
    const login = await post("/api/auth/login", { email, password: "a new password" });
    expect((login.json() as AuthAnswer).user.organizationId).toBe(second.user.organizationId);
  });

  it("still refuses an email already in the admin's own organization (which the admin can see anyway)", async () => {
    const admin = await registerOrg(t.app);
    const email = `twice-${unique()}@example.com`;
    expect((await invite(admin, email)).statusCode).toBe(201);
    for (const again of [email, admin.user.email]) {
      const res = await invite(admin, again);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual(errorAnswer("An account with this email already exists", "EMAIL_TAKEN"));
    }
  });
});

describe("the log", () => {
  it("never holds a password-reset or invitation token, even without SMTP_URL; the outbox has the links", async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString("utf8"));
        done();
      },
    });
    const local = await createTestApp({ logger: { level: "trace", stream } });
    try {
      const admin = await registerOrg(local.app);
      const invitee = `ivy-${unique()}@example.com`;
      const invited = await local.app.inject({
        method: "POST",
        url: "/api/users/invite",
        headers: bearer(admin.token),
        payload: { email: invitee, firstName: "Ivy", lastName: "Bell" },
      });
      expect(invited.statusCode).toBe(201);
      await local.app.inject({
        method: "POST",
        url: "/api/auth/forgot-password",
        payload: { email: admin.user.email },
      });
      const emlFiles = () => readdirSync(local.outboxDir).filter((f) => f.endsWith(".eml"));
      for (let i = 0; i < 500 && emlFiles().length < 2; i++) await new Promise((r) => setTimeout(r, 20));
      const mails = emlFiles().map((f) => decodeQuotedPrintable(readFileSync(path.join(local.outboxDir, f), "utf8")));
      expect(mails).toHaveLength(2);
      const tokens = mails.map((m) => /\?token=([A-Za-z0-9_-]{43})/.exec(m)?.[1]);
      expect(tokens.every((tk) => tk !== undefined)).toBe(true);
      // Opening the links (the pages that read the token) and using it are logged as requests too.
      const [first, second] = tokens as string[];
      await local.app.inject({ method: "GET", url: `/accept-invite?token=${first}` });
      await local.app.inject({ method: "GET", url: `/reset-password?token=${second}&x=1` });
      await local.app.inject({ method: "POST", url: "/api/auth/invite-details", payload: { token: first } });

      const log = lines.join("");
      expect(log).toContain("outbox");
      for (const token of tokens as string[]) expect(log).not.toContain(token);
      expect(log).not.toMatch(/token=[A-Za-z0-9_-]{20}/);
    } finally {
      await local.close();
    }
  });
});

function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
