import type { AuthAnswer } from "@cove/contract/auth.ts";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sessions } from "../../src/db/schema/auth.ts";
import { organizations } from "../../src/db/schema/organizations.ts";
import { users } from "../../src/db/schema/users.ts";
import { hashToken } from "../../src/platform/auth.ts";
import { queryRows } from "../../src/platform/db.ts";
import { bearer, errorAnswer, registerOrg, registration, testAppForFile, unique } from "../helpers.ts";

const t = testAppForFile();

// Sign-in failures are throttled per address, so each request comes from its own address unless a test says otherwise.
// Documentation-range IPv6 addresses, unique per run, so a re-run on the same database starts with a clean slate.
const run = Math.floor(Math.random() * 0xffff).toString(16);
let n = 0;
const nextAddress = () => `2001:db8:${run}:${(n++).toString(16)}::1`;
const post = (url: string, payload: unknown, remoteAddress = nextAddress()) =>
  t.app.inject({ method: "POST", url, payload: payload as object, remoteAddress });

async function sessionExpiry(token: string): Promise<Date> {
  const [row] = await t.database.db
    .select({ expiresAt: sessions.expiresAt })
    .from(sessions)
    .where(eq(sessions.tokenHash, hashToken(token)));
  if (!row) throw new Error("no session stored for token");
  return row.expiresAt;
}

describe("POST /api/auth/register", () => {
  it("creates the organization on a 14-day Growth trial, its admin, and a session", async () => {
    const body = registration({ organizationName: "  Blue Harbor Bikes ", email: `Owner-${unique()}@Example.COM` });
    const res = await post("/api/auth/register", body);
    expect(res.statusCode).toBe(201);
    const { token, user } = res.json() as AuthAnswer;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(user).toMatchObject({
      email: body.email.toLowerCase(),
      firstName: "Ada",
      lastName: "Lovelace",
      role: "admin",
      organizationName: "Blue Harbor Bikes",
      organizationSlug: "blue-harbor-bikes",
      avatarUrl: null,
    });
    const [org] = await t.database.db.select().from(organizations).where(eq(organizations.id, user.organizationId));
    expect(org?.plan).toBe("growth");
    expect(org?.subscriptionStatus).toBe("trialing");
    const days = ((org?.trialEndsAt?.getTime() ?? 0) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13.99);
    expect(days).toBeLessThanOrEqual(14);

    const me = await t.app.inject({ method: "GET", url: "/api/auth/me", headers: bearer(token) });
    expect(me.statusCode).toBe(200);
    expect(me.json().user).toEqual(user);
  });

  it("stores only a hash of the session token", async () => {
    const { token } = await registerOrg(t.app);
    const found = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from sessions where token_hash = ${token}`,
    );
    expect(found[0]?.n).toBe(0);
    expect(await sessionExpiry(token)).toBeInstanceOf(Date);
  });

  it("gives a second organization with the same name its own unique slug", async () => {
    const name = `Same Name ${unique()}`;
    const a = await registerOrg(t.app, { organizationName: name });
    const b = await registerOrg(t.app, { organizationName: name });
    expect(a.user.organizationSlug).not.toBe(b.user.organizationSlug);
    expect(b.user.organizationSlug.startsWith(a.user.organizationSlug)).toBe(true);
    expect(a.user.organizationId).not.toBe(b.user.organizationId);
  });

  it("answers 409 for an email already registered, whatever its case", async () => {
    const first = await registerOrg(t.app);
    const res = await post("/api/auth/register", registration({ email: first.user.email.toUpperCase() }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual(errorAnswer("An account with this email already exists", "EMAIL_TAKEN"));
  });

  it("names every missing field and keeps the spec's password message", async () => {
    const res = await post("/api/auth/register", { email: "x@example.com", password: "short" });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe("VALIDATION_ERROR");
    const byPath = Object.fromEntries(body.details.map((d: { path: string; message: string }) => [d.path, d.message]));
    expect(byPath).toMatchObject({
      organizationName: "Company name is required",
      firstName: "First name is required",
      lastName: "Last name is required",
      password: "Password must be at least 8 characters long",
    });
  });

  it("rejects a blank company name, a bad email, and a password over 128 characters", async () => {
    const blank = await post("/api/auth/register", registration({ organizationName: "   " }));
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error).toBe("Company name is required");
    const badEmail = await post("/api/auth/register", registration({ email: "not-an-email" }));
    expect(badEmail.json().error).toBe("Enter a valid email address");
    const long = await post("/api/auth/register", registration({ password: "x".repeat(129) }));
    expect(long.statusCode).toBe(400);
    expect(long.json().error).toBe("Password must be at most 128 characters long");
  });
});

describe("POST /api/auth/login", () => {
  it("signs in with the right password and updates the last sign-in time", async () => {
    const { user, password } = await registerOrg(t.app);
    await t.database.db.update(users).set({ lastLoginAt: null }).where(eq(users.id, user.id));
    const res = await post("/api/auth/login", { email: user.email.toUpperCase(), password });
    expect(res.statusCode).toBe(200);
    const answer = res.json() as AuthAnswer;
    expect(answer.user).toEqual(user);
    const [row] = await t.database.db.select({ at: users.lastLoginAt }).from(users).where(eq(users.id, user.id));
    expect(row?.at).toBeInstanceOf(Date);
  });

  it("answers an unknown email and a wrong password with the same 401", async () => {
    const { user } = await registerOrg(t.app);
    const wrong = await post("/api/auth/login", { email: user.email, password: "wrong password" });
    const unknown = await post("/api/auth/login", { email: `nobody-${unique()}@example.com`, password: "whatever1" });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(errorAnswer("Invalid email or password", "INVALID_CREDENTIALS"));
    expect(unknown.json()).toEqual({ ...wrong.json(), requestId: unknown.headers["x-request-id"] });
  });

  it("keeps a session 12 hours, or 30 days with Remember me", async () => {
    const { user, password } = await registerOrg(t.app);
    const short = (await post("/api/auth/login", { email: user.email, password })).json() as AuthAnswer;
    const long = (
      await post("/api/auth/login", { email: user.email, password, rememberMe: true })
    ).json() as AuthAnswer;
    const hours = (d: Date) => (d.getTime() - Date.now()) / 3_600_000;
    expect(hours(await sessionExpiry(short.token))).toBeGreaterThan(11.9);
    expect(hours(await sessionExpiry(short.token))).toBeLessThanOrEqual(12);
    expect(hours(await sessionExpiry(long.token)) / 24).toBeGreaterThan(29.9);
    expect(hours(await sessionExpiry(long.token)) / 24).toBeLessThanOrEqual(30);
  });

  it("rejects an expired session", async () => {
    const { token } = await registerOrg(t.app);
    await t.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.tokenHash, hashToken(token)));
    const me = await t.app.inject({ method: "GET", url: "/api/auth/me", headers: bearer(token) });
    expect(me.statusCode).toBe(401);
    expect(me.json().code).toBe("UNAUTHORIZED");
  });

  it("locks an account after 10 failed attempts in 15 minutes, even with the right password", async () => {
    const { user, password } = await registerOrg(t.app);
    for (let i = 0; i < 10; i++) {
      const res = await post("/api/auth/login", { email: user.email, password: `wrong-${i}-pass` });
      expect(res.statusCode).toBe(401);
    }
    const locked = await post("/api/auth/login", { email: user.email, password });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe("RATE_LIMITED");
    expect(locked.json().error).toMatch(/Too many failed sign-in attempts/);
  });

  it("throttles one address trying many accounts", async () => {
    const { user, password } = await registerOrg(t.app);
    const attempt = (email: string, pw: string) =>
      post("/api/auth/login", { email, password: pw }, `2001:db8:${run}::ffff`);
    for (let i = 0; i < 10; i++) {
      expect((await attempt(`guess-${i}-${unique()}@example.com`, "password1")).statusCode).toBe(401);
    }
    const res = await attempt(user.email, password);
    expect(res.statusCode).toBe(429);
  });

  it("refuses a deactivated user and ends their sessions at once", async () => {
    const { user, token, password } = await registerOrg(t.app);
    await t.database.db.update(users).set({ status: "inactive" }).where(eq(users.id, user.id));
    const me = await t.app.inject({ method: "GET", url: "/api/auth/me", headers: bearer(token) });
    expect(me.statusCode).toBe(401);
    const res = await post("/api/auth/login", { email: user.email, password });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatch(/deactivated/);
  });

  it("requires email and password", async () => {
    const res = await post("/api/auth/login", {});
    expect(res.statusCode).toBe(400);
    expect(
      res
        .json()
        .details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(["email", "password"]);
  });
});

describe("POST /api/auth/logout", () => {
  it("revokes the session on the server", async () => {
    const { token } = await registerOrg(t.app);
    const out = await t.app.inject({ method: "POST", url: "/api/auth/logout", headers: bearer(token) });
    expect(out.statusCode).toBe(200);
    const me = await t.app.inject({ method: "GET", url: "/api/auth/me", headers: bearer(token) });
    expect(me.statusCode).toBe(401);
  });

  it("leaves the user's other sessions alone", async () => {
    const { user, password, token } = await registerOrg(t.app);
    const other = (await post("/api/auth/login", { email: user.email, password })).json() as AuthAnswer;
    await t.app.inject({ method: "POST", url: "/api/auth/logout", headers: bearer(token) });
    const me = await t.app.inject({ method: "GET", url: "/api/auth/me", headers: bearer(other.token) });
    expect(me.statusCode).toBe(200);
  });
});

// A 1x1 PNG and the first bytes of a JPEG: real image headers, as the server checks the bytes, not the label.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 7)]);
const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString("base64")}`;

describe("PUT /api/auth/profile", () => {
  it("updates the fields sent and answers the merged user", async () => {
    const { token, user } = await registerOrg(t.app);
    const avatar = dataUrl("image/png", PNG);
    const res = await t.app.inject({
      method: "PUT",
      url: "/api/auth/profile",
      headers: bearer(token),
      payload: { firstName: " Grace ", avatarUrl: avatar },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toEqual({ ...user, firstName: "Grace", avatarUrl: avatar });
    const jpeg = dataUrl("image/jpeg", JPEG);
    const changed = await t.app.inject({
      method: "PUT",
      url: "/api/auth/profile",
      headers: bearer(token),
      payload: { avatarUrl: jpeg },
    });
    expect(changed.json().user.avatarUrl).toBe(jpeg);
    const cleared = await t.app.inject({
      method: "PUT",
      url: "/api/auth/profile",
      headers: bearer(token),
      payload: { avatarUrl: "" },
    });
    expect(cleared.json().user.avatarUrl).toBeNull();
  });

  it("rejects pictures that are not small PNG, JPEG or WebP images, an empty change, and a blank name", async () => {
    const { token } = await registerOrg(t.app);
    const put = (payload: object) =>
      t.app.inject({ method: "PUT", url: "/api/auth/profile", headers: bearer(token), payload });
    for (const [avatarUrl, error] of [
      ["javascript:alert(1)", "The picture must be a PNG, JPEG or WebP image"],
      ["https://images.example.com/grace.png", "The picture must be a PNG, JPEG or WebP image"],
      [dataUrl("image/svg+xml", Buffer.from("<svg onload=alert(1)>")), "The picture must be a PNG, JPEG or WebP image"],
      ["data:image/png;base64,not base64!", "The picture must be a PNG, JPEG or WebP image"],
      [dataUrl("image/png", JPEG), "The picture's content is not the image type it claims to be"],
      [
        dataUrl("image/jpeg", Buffer.from("<html><script>alert(1)</script></html>")),
        "The picture's content is not the image type it claims to be",
      ],
      [dataUrl("image/png", Buffer.concat([PNG, Buffer.alloc(101 * 1024)])), "The picture must be at most 100 KB"],
    ] as const) {
      const res = await put({ avatarUrl });
      expect(res.statusCode, avatarUrl.slice(0, 40)).toBe(400);
      expect(res.json().error).toBe(error);
    }
    expect((await put({})).statusCode).toBe(400);
    expect((await put({ lastName: "  " })).json().error).toBe("Last name is required");
    const me = await t.app.inject({ method: "GET", url: "/api/auth/me", headers: bearer(token) });
    expect(me.json().user.avatarUrl).toBeNull();
  });

  it("changes the password with the current one, ending every other session but this one", async () => {
    const { token, user, password } = await registerOrg(t.app);
    const other = (await post("/api/auth/login", { email: user.email, password })).json() as AuthAnswer;
    const put = (payload: object) =>
      t.app.inject({ method: "PUT", url: "/api/auth/profile", headers: bearer(token), payload });

    const wrong = await put({ currentPassword: "not my password", newPassword: "a new secret phrase" });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      error: "Your current password is not correct",
      details: [{ path: "currentPassword", message: "Your current password is not correct" }],
    });
    expect((await put({ newPassword: "a new secret phrase" })).json().error).toBe(
      "Enter your current password to choose a new one",
    );
    expect((await put({ currentPassword: password, newPassword: "short" })).json().error).toBe(
      "Password must be at least 8 characters long",
    );
    const me = (who: string) => t.app.inject({ method: "GET", url: "/api/auth/me", headers: bearer(who) });
    expect((await me(other.token)).statusCode).toBe(200);

    const ok = await put({ currentPassword: password, newPassword: "a new secret phrase" });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user.id).toBe(user.id);
    expect((await me(token)).statusCode).toBe(200);
    expect((await me(other.token)).statusCode).toBe(401);
    expect((await post("/api/auth/login", { email: user.email, password })).statusCode).toBe(401);
    expect((await post("/api/auth/login", { email: user.email, password: "a new secret phrase" })).statusCode).toBe(
      200,
    );
  });

  it("changes only the caller: another organization's user is untouched", async () => {
    const a = await registerOrg(t.app);
    const b = await registerOrg(t.app);
    await t.app.inject({
      method: "PUT",
      url: "/api/auth/profile",
      headers: bearer(a.token),
      payload: { lastName: "Changed" },
    });
    const meB = await t.app.inject({ method: "GET", url: "/api/auth/me", headers: bearer(b.token) });
    expect(meB.json().user.lastName).toBe("Lovelace");
  });

  it("requires a session", async () => {
    const res = await t.app.inject({ method: "PUT", url: "/api/auth/profile", payload: { firstName: "X" } });
    expect(res.statusCode).toBe(401);
  });
});
