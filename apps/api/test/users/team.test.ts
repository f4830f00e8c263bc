import type { AuthAnswer } from "@cove/contract/auth.ts";
import type { UserListAnswer, UserListItem } from "@cove/contract/users.ts";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { sessions } from "../../src/db/schema/auth.ts";
import { organizations } from "../../src/db/schema/organizations.ts";
import { bearer, client, errorAnswer, registerOrg, registration, testAppWithMail, unique } from "../helpers.ts";
import { linkToken } from "../smtp.ts";

const { t, smtp } = testAppWithMail();

type Session = { token: string; user: AuthAnswer["user"] };
const call = client(() => t.app);

const person = (overrides: Record<string, unknown> = {}) => ({
  email: `grace-${unique()}@example.com`,
  firstName: "Grace",
  lastName: "Hopper",
  ...overrides,
});

async function invite(admin: Session, overrides: Record<string, unknown> = {}): Promise<UserListItem> {
  const res = await call(admin, "POST", "/api/users/invite", person(overrides));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().user as UserListItem;
}

async function invitationToken(email: string): Promise<string> {
  const mails = await smtp.waitFor(1, (m) => m.to.includes(email));
  const last = mails.at(-1);
  if (!last) throw new Error(`no invitation mail for ${email}`);
  return linkToken(last, "/accept-invite");
}

const accept = (token: string, overrides: Record<string, unknown> = {}) =>
  t.app.inject({
    method: "POST",
    url: "/api/auth/accept-invite",
    payload: { token, firstName: "Grace", lastName: "Hopper", password: "compilers are fun", ...overrides },
    remoteAddress: `198.51.100.${Math.floor(Math.random() * 250) + 1}`,
  });

/** Invites someone into admin's organization and accepts through the emailed link: a signed-in member. */
async function addMember(admin: Session, role: "agent" | "admin" = "agent"): Promise<Session> {
  const invited = await invite(admin, { role });
  const res = await accept(await invitationToken(invited.email));
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as AuthAnswer;
}

/** Puts the organization on a paid plan with an active subscription, as paying for it does. */
async function subscribe(admin: Session, plan: "starter" | "business"): Promise<void> {
  await t.database.db
    .update(organizations)
    .set({ plan, subscriptionStatus: "active" })
    .where(eq(organizations.id, admin.user.organizationId));
}

const listUsers = async (who: Session) => {
  const res = await call(who, "GET", "/api/users");
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as UserListAnswer;
};

const login = (email: string, password: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: { email, password },
    remoteAddress: `203.0.113.${Math.floor(Math.random() * 250) + 1}`,
  });

describe("POST /api/users/invite", () => {
  it("adds an invited member who holds a seat, and emails them a link in text and HTML", async () => {
    const admin = await registerOrg(t.app, { organizationName: `Harbor <b>Bikes</b> & Co ${unique()}` });
    const invited = await invite(admin, { email: `Mixed.Case-${unique()}@Example.com`, role: "admin" });
    expect(invited).toMatchObject({
      first_name: "Grace",
      last_name: "Hopper",
      role: "admin",
      status: "invited",
      last_login_at: null,
    });
    expect(invited.email).toBe(invited.email.toLowerCase());

    const list = await listUsers(admin);
    expect(list.users.map((u) => u.id)).toContain(invited.id);
    expect(list.seats).toEqual({ plan: "growth", plan_name: "Growth", used: 2, limit: 10 });

    const [mail] = await smtp.waitFor(1, (m) => m.to.includes(invited.email));
    expect(mail?.decoded).toMatch(/Subject: You're invited to join Harbor <b>Bikes<\/b> & Co/);
    expect(mail?.decoded).toMatch(/Content-Type: text\/plain/);
    expect(mail?.decoded).toMatch(/Content-Type: text\/html/);
    // In the HTML part every typed name is escaped; the plain-text part keeps it as typed.
    const html = mail?.decoded.split(/Content-Type: text\/html/)[1] ?? "";
    expect(html).toContain("Harbor &lt;b&gt;Bikes&lt;/b&gt; &amp; Co");
    expect(html).not.toContain("<b>Bikes</b>");
    expect(mail?.decoded).toContain("Ada Lovelace has invited you");
    expect(linkToken(mail ?? { to: [], raw: "", decoded: "" }, "/accept-invite")).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("makes agent the default role and requires the spec's fields", async () => {
    const admin = await registerOrg(t.app);
    expect((await invite(admin)).role).toBe("agent");
    const res = await call(admin, "POST", "/api/users/invite", { email: "not an email", role: "owner" });
    expect(res.statusCode).toBe(400);
    const messages = (res.json().details as { message: string }[]).map((d) => d.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        "Enter a valid email address",
        "First name is required",
        "Last name is required",
        "Role must be agent or admin",
      ]),
    );
  });

  it("refuses an email already in this organization with 409", async () => {
    const admin = await registerOrg(t.app);
    const first = await invite(admin);
    for (const email of [first.email, admin.user.email, first.email.toUpperCase()]) {
      const res = await call(admin, "POST", "/api/users/invite", person({ email }));
      expect(res.statusCode, email).toBe(409);
      expect(res.json()).toEqual(errorAnswer("An account with this email already exists", "EMAIL_TAKEN"));
    }
    expect((await listUsers(admin)).users).toHaveLength(2);
  });

  it("refuses another organization's member at once (an invitation they could never accept), holding no seat", async () => {
    const admin = await registerOrg(t.app);
    const other = await registerOrg(t.app);
    const res = await call(admin, "POST", "/api/users/invite", person({ email: other.user.email.toUpperCase() }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: "EMAIL_TAKEN" });
    expect(res.json().error).toMatch(/already has a Cove account in another organization/);
    const team = await listUsers(admin);
    expect(team.users).toHaveLength(1);
    expect(team.seats?.used).toBe(1);
  });
});

describe("seats", () => {
  it("limits active plus invited members to the plan, naming the plan and its limit", async () => {
    const admin = await registerOrg(t.app);
    await subscribe(admin, "starter");
    const second = await invite(admin);
    await invite(admin);
    const over = await call(admin, "POST", "/api/users/invite", person());
    expect(over.statusCode).toBe(403);
    expect(over.json()).toMatchObject({ code: "SEAT_LIMIT" });
    expect(over.json().error).toContain("The Starter plan allows up to 3 team members");

    // Revoking an invitation frees its seat.
    expect((await call(admin, "DELETE", `/api/users/${second.id}`)).statusCode).toBe(200);
    expect((await listUsers(admin)).seats).toMatchObject({ used: 2, limit: 3 });
    await invite(admin);
  });

  it("gives a trial the Growth limit of 10, and Business no limit", async () => {
    const admin = await registerOrg(t.app);
    for (let i = 0; i < 9; i++) await invite(admin);
    const over = await call(admin, "POST", "/api/users/invite", person());
    expect(over.statusCode).toBe(403);
    expect(over.json().error).toContain("Your trial has the Growth plan's limit of 10 team members");

    await subscribe(admin, "business");
    await invite(admin);
    expect((await listUsers(admin)).seats).toEqual({ plan: "business", plan_name: "Business", used: 11, limit: null });
  });

  it("counts a member being activated again", async () => {
    const admin = await registerOrg(t.app);
    await subscribe(admin, "starter");
    const member = await addMember(admin);
    expect((await call(admin, "PUT", `/api/users/${member.user.id}`, { status: "inactive" })).statusCode).toBe(200);
    await invite(admin);
    await invite(admin);
    const res = await call(admin, "PUT", `/api/users/${member.user.id}`, { status: "active" });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toContain("Starter plan allows up to 3");
  });
});

describe("roles on the server", () => {
  let admin: Session;
  let agent: Session;
  let pending: UserListItem;
  beforeAll(async () => {
    admin = await registerOrg(t.app);
    agent = await addMember(admin, "agent");
    pending = await invite(admin);
  });

  it("lets an agent read the team list", async () => {
    const list = await listUsers(agent);
    expect(list.users.map((u) => u.email).sort()).toEqual([admin.user.email, agent.user.email, pending.email].sort());
  });

  it("refuses every team change to an agent with 403 and a clear message", async () => {
    const attempts = [
      call(agent, "POST", "/api/users/invite", person()),
      call(agent, "PUT", `/api/users/${admin.user.id}`, { role: "agent" }),
      call(agent, "PUT", `/api/users/${admin.user.id}`, { status: "inactive" }),
      call(agent, "PUT", `/api/users/${agent.user.id}`, { role: "admin" }),
      call(agent, "POST", `/api/users/${pending.id}/resend-invite`),
      call(agent, "DELETE", `/api/users/${pending.id}`),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(errorAnswer("Only an administrator can do this.", "FORBIDDEN"));
    }
    const list = await listUsers(admin);
    expect(list.users.find((u) => u.id === agent.user.id)?.role).toBe("agent");
    expect(list.users.find((u) => u.id === pending.id)?.status).toBe("invited");
  });

  it("applies a role change on the member's very next request", async () => {
    const member = await addMember(admin, "agent");
    expect((await call(member, "POST", "/api/users/invite", person())).statusCode).toBe(403);
    const res = await call(admin, "PUT", `/api/users/${member.user.id}`, { role: "admin" });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ id: member.user.id, role: "admin", status: "active" });
    expect((await call(member, "POST", "/api/users/invite", person())).statusCode).toBe(201);
  });
});

describe("an organization always keeps an active admin", () => {
  it("refuses to demote or deactivate the last active admin, and nobody deactivates themselves", async () => {
    const admin = await registerOrg(t.app);
    const demote = await call(admin, "PUT", `/api/users/${admin.user.id}`, { role: "agent" });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().error).toBe(
      "Your organization must keep at least one active admin. Make another team member an admin first.",
    );
    const self = await call(admin, "PUT", `/api/users/${admin.user.id}`, { status: "inactive" });
    expect(self.statusCode).toBe(403);
    expect(self.json().error).toBe("You cannot deactivate your own account. Ask another admin to do it.");

    const second = await addMember(admin, "admin");
    // With a second active admin, the first may step down; then the second is the last one.
    expect((await call(admin, "PUT", `/api/users/${admin.user.id}`, { role: "agent" })).statusCode).toBe(200);
    const last = await call(second, "PUT", `/api/users/${second.user.id}`, { role: "agent" });
    expect(last.statusCode).toBe(409);
    const deactivateLast = await call(second, "PUT", `/api/users/${second.user.id}`, { status: "inactive" });
    expect(deactivateLast.statusCode).toBe(403);
    // An invited admin does not count: they cannot act yet.
    await invite(second, { role: "admin" });
    expect((await call(second, "PUT", `/api/users/${second.user.id}`, { role: "agent" })).statusCode).toBe(409);
  });

  it("lets two admins race to demote each other and keeps one of them", async () => {
    const a = await registerOrg(t.app);
    const b = await addMember(a, "admin");
    const [ra, rb] = await Promise.all([
      call(a, "PUT", `/api/users/${b.user.id}`, { role: "agent" }),
      call(b, "PUT", `/api/users/${a.user.id}`, { role: "agent" }),
    ]);
    // The loser is refused: as the last admin (409), or as an agent already if the winner committed first (403).
    const statuses = [ra.statusCode, rb.statusCode].sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const admins = (await listUsers(a)).users.filter((u) => u.role === "admin" && u.status === "active");
    expect(admins).toHaveLength(1);
  });
});

describe("deactivating and activating", () => {
  it("ends the member's sessions at once, refuses sign-in, and activating restores it", async () => {
    const admin = await registerOrg(t.app);
    const member = await addMember(admin);
    expect((await call(member, "GET", "/api/auth/me")).statusCode).toBe(200);

    const off = await call(admin, "PUT", `/api/users/${member.user.id}`, { status: "inactive" });
    expect(off.statusCode).toBe(200);
    expect(off.json().user.status).toBe("inactive");
    expect((await call(member, "GET", "/api/auth/me")).statusCode).toBe(401);
    expect((await call(member, "GET", "/api/tickets")).statusCode).toBe(401);
    const rows = await t.database.db.select().from(sessions).where(eq(sessions.userId, member.user.id));
    expect(rows).toHaveLength(0);
    const refused = await login(member.user.email, "compilers are fun");
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe(
      "This account has been deactivated. Ask an administrator of your team to activate it.",
    );

    const on = await call(admin, "PUT", `/api/users/${member.user.id}`, { status: "active" });
    expect(on.json().user.status).toBe("active");
    expect((await call(member, "GET", "/api/auth/me")).statusCode).toBe(401);
    const back = await login(member.user.email, "compilers are fun");
    expect(back.statusCode).toBe(200);
  });

  it("does not activate or deactivate an invitation, and checks the body", async () => {
    const admin = await registerOrg(t.app);
    const pending = await invite(admin);
    for (const status of ["active", "inactive"]) {
      const res = await call(admin, "PUT", `/api/users/${pending.id}`, { status });
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toContain("has not accepted the invitation yet");
    }
    expect((await call(admin, "PUT", `/api/users/${pending.id}`, { role: "admin" })).json().user.role).toBe("admin");
    expect((await call(admin, "PUT", `/api/users/${pending.id}`, {})).json().error).toBe(
      "Send a role or a status to change",
    );
    expect((await call(admin, "PUT", `/api/users/${pending.id}`, { status: "invited" })).json().error).toBe(
      "Status must be active or inactive",
    );
  });
});

describe("another organization", () => {
  it("gets 404 for these user ids and sees none of them", async () => {
    const admin = await registerOrg(t.app);
    const member = await addMember(admin);
    const pending = await invite(admin);
    const stranger = await registerOrg(t.app);
    for (const id of [admin.user.id, member.user.id, pending.id]) {
      for (const res of [
        await call(stranger, "PUT", `/api/users/${id}`, { role: "agent" }),
        await call(stranger, "PUT", `/api/users/${id}`, { status: "inactive" }),
        await call(stranger, "POST", `/api/users/${id}/resend-invite`),
        await call(stranger, "DELETE", `/api/users/${id}`),
      ]) {
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual(errorAnswer("User not found", "NOT_FOUND"));
      }
    }
    const theirs = await listUsers(stranger);
    expect(theirs.users.map((u) => u.id)).toEqual([stranger.user.id]);
    const mine = await listUsers(admin);
    expect(mine.users).toHaveLength(3);
    expect(mine.users.find((u) => u.id === member.user.id)?.status).toBe("active");
    expect((await call(admin, "PUT", "/api/users/not-a-uuid", { role: "agent" })).statusCode).toBe(404);
  });
});

describe("resending and revoking invitations", () => {
  it("resends a new link and the old one stops working", async () => {
    const admin = await registerOrg(t.app);
    const pending = await invite(admin);
    const first = await invitationToken(pending.email);
    const res = await call(admin, "POST", `/api/users/${pending.id}/resend-invite`);
    expect(res.statusCode).toBe(200);
    expect(res.json().user.id).toBe(pending.id);
    const mails = await smtp.waitFor(2, (m) => m.to.includes(pending.email));
    const second = linkToken(mails[1] ?? { to: [], raw: "", decoded: "" }, "/accept-invite");
    expect(second).not.toBe(first);
    const old = await accept(first);
    expect(old.statusCode).toBe(410);
    expect(old.json().code).toBe("INVITATION_EXPIRED");
    expect((await accept(second)).statusCode).toBe(200);
    const again = await call(admin, "POST", `/api/users/${pending.id}/resend-invite`);
    expect(again.statusCode).toBe(409);
  });

  it("revokes only a pending invitation, and its link no longer works", async () => {
    const admin = await registerOrg(t.app);
    const pending = await invite(admin);
    const token = await invitationToken(pending.email);
    const res = await call(admin, "DELETE", `/api/users/${pending.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: "Invitation revoked" });
    expect((await listUsers(admin)).users.map((u) => u.id)).not.toContain(pending.id);
    expect((await accept(token)).statusCode).toBe(400);

    const self = await call(admin, "DELETE", `/api/users/${admin.user.id}`);
    expect(self.statusCode).toBe(409);
    expect(self.json().error).toContain("Only a pending invitation can be revoked");
  });
});

describe("registering with an invited email", () => {
  it("says the invitation is waiting (not that an account exists), and registers once it is revoked", async () => {
    const admin = await registerOrg(t.app);
    const pending = await invite(admin);
    const register = () =>
      t.app.inject({
        method: "POST",
        url: "/api/auth/register",
        payload: registration({ email: pending.email.toUpperCase() }),
        remoteAddress: `198.51.100.${Math.floor(Math.random() * 250) + 1}`,
      });
    const refused = await register();
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual(
      errorAnswer(
        "This email has an invitation waiting to join a team on Cove. Open the link in the invitation email to join, or ask the person who invited you to revoke it to start a team of your own.",
        "EMAIL_TAKEN",
      ),
    );

    expect((await call(admin, "DELETE", `/api/users/${pending.id}`)).statusCode).toBe(200);
    const registered = await register();
    expect(registered.statusCode, registered.body).toBe(201);
    expect(registered.json().user.organizationId).not.toBe(admin.user.organizationId);
  });

  it("still says an account exists when the email has one as well as an invitation elsewhere", async () => {
    const admin = await registerOrg(t.app);
    const member = await registerOrg(t.app);
    await t.database.db.execute(
      sql`insert into users (organization_id, email, first_name, last_name, role, status)
          values (${admin.user.organizationId}, ${member.user.email}, 'Grace', 'Hopper', 'agent', 'invited')`,
    );
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/register",
      payload: registration({ email: member.user.email }),
      remoteAddress: `198.51.100.${Math.floor(Math.random() * 250) + 1}`,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual(errorAnswer("An account with this email already exists", "EMAIL_TAKEN"));
  });
});

describe("accepting an invitation", () => {
  it("shows whose team it is, sets names and password, and signs in like login", async () => {
    const admin = await registerOrg(t.app);
    const pending = await invite(admin, { firstName: "Gracie" });
    const token = await invitationToken(pending.email);

    const details = await t.app.inject({ method: "POST", url: "/api/auth/invite-details", payload: { token } });
    expect(details.statusCode).toBe(200);
    expect(details.json()).toMatchObject({
      organization_name: admin.user.organizationName,
      email: pending.email,
      first_name: "Gracie",
      last_name: "Hopper",
      role: "agent",
    });
    const days = (Date.parse(details.json().expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);

    const res = await accept(token, { firstName: " Grace ", password: "a long password" });
    expect(res.statusCode).toBe(200);
    const { token: session, user } = res.json() as AuthAnswer;
    expect(user).toMatchObject({
      id: pending.id,
      firstName: "Grace",
      role: "agent",
      organizationName: admin.user.organizationName,
    });
    expect((await t.app.inject({ method: "GET", url: "/api/auth/me", headers: bearer(session) })).statusCode).toBe(200);
    expect((await login(pending.email, "a long password")).statusCode).toBe(200);
    const member = (await listUsers(admin)).users.find((u) => u.id === pending.id);
    expect(member).toMatchObject({ status: "active", first_name: "Grace" });
    expect(member?.last_login_at).not.toBeNull();

    const twice = await accept(token);
    expect(twice.statusCode).toBe(410);
    expect(twice.json()).toEqual(
      errorAnswer("This invitation has already been used. Sign in with your email and password.", "INVITATION_USED"),
    );
  });

  it("says so when the link has expired, is unknown, or the password is too short", async () => {
    const admin = await registerOrg(t.app);
    const pending = await invite(admin);
    const token = await invitationToken(pending.email);
    expect((await accept(token, { password: "short" })).json().error).toBe(
      "Password must be at least 8 characters long",
    );
    await t.database.executeSql("update invitations set expires_at = now() - interval '1 second' where user_id = $1", [
      pending.id,
    ]);
    const expired = await accept(token);
    expect(expired.statusCode).toBe(410);
    expect(expired.json().error).toBe(
      "This invitation has expired. Ask your administrator to send you a new one: it is valid for 7 days.",
    );
    const details = await t.app.inject({ method: "POST", url: "/api/auth/invite-details", payload: { token } });
    expect(details.json().code).toBe("INVITATION_EXPIRED");
    const bogus = await accept("not-a-real-invitation-token");
    expect(bogus.statusCode).toBe(400);
    expect(bogus.json().code).toBe("INVALID_TOKEN");
    expect((await login(pending.email, "compilers are fun")).statusCode).toBe(401);
  });
});
