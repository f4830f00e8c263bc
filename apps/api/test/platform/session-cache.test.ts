/**
 * Requests reuse a resolved session for up to a minute (platform/session-cache.ts), but every tenant transaction checks
 * it again: whatever happens to a session or its user takes effect on the very next request, cache or not.
 */
import { eq, sql } from "drizzle-orm";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { sessions } from "../../src/db/schema/auth.ts";
import { users } from "../../src/db/schema/users.ts";
import { createAuthenticator, inRequest, registerAccessControl } from "../../src/platform/auth.ts";
import { registerErrorHandling } from "../../src/platform/errors.ts";
import { createSessionCache } from "../../src/platform/session-cache.ts";
import { addMember, bearer, registerOrg, testAppForFile } from "../helpers.ts";

const t = testAppForFile();

const get = (token: string, url: string) => t.app.inject({ method: "GET", url, headers: bearer(token) });
/** An admin-only route that changes nothing: an invitation to an address that is already taken answers 409. */
const adminCall = (token: string, email: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/users/invite",
    headers: bearer(token),
    payload: { email, firstName: "Sam", lastName: "Lee", role: "agent" },
  });

const member = (orgId: string, role: "agent" | "admin") => addMember(t.database, orgId, { role, firstName: "Kim" });

describe("a cached session", () => {
  it("is refused on the next request after signing out", async () => {
    const org = await registerOrg(t.app);
    expect((await get(org.token, "/api/tickets")).statusCode).toBe(200);
    const out = await t.app.inject({ method: "POST", url: "/api/auth/logout", headers: bearer(org.token) });
    expect(out.statusCode).toBe(200);
    const after = await get(org.token, "/api/tickets");
    expect(after.statusCode).toBe(401);
    expect(after.json().error).toBe("Your session has ended. Please sign in again.");
  });

  it("is refused at once when its user is deactivated or the session expires", async () => {
    const org = await registerOrg(t.app);
    const agent = await member(org.user.organizationId, "agent");
    const other = await member(org.user.organizationId, "agent");
    for (const who of [agent, other]) expect((await get(who.token, "/api/auth/me")).statusCode).toBe(200);

    await t.database.db.update(users).set({ status: "inactive" }).where(eq(users.id, agent.id));
    await t.database.db
      .update(sessions)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(sessions.userId, other.id));
    for (const who of [agent, other]) {
      expect((await get(who.token, "/api/auth/me")).statusCode).toBe(401);
      expect((await get(who.token, "/api/tickets")).statusCode).toBe(401);
    }
  });

  it("follows a role change at once, both ways", async () => {
    const org = await registerOrg(t.app);
    const admin = await member(org.user.organizationId, "admin");
    const agent = await member(org.user.organizationId, "agent");
    // Warm both: the admin may invite (409: the address is taken), the agent may not.
    expect((await adminCall(admin.token, org.user.email)).statusCode).toBe(409);
    expect((await adminCall(agent.token, org.user.email)).statusCode).toBe(403);

    await t.database.db.update(users).set({ role: "agent" }).where(eq(users.id, admin.id));
    await t.database.db.update(users).set({ role: "admin" }).where(eq(users.id, agent.id));
    expect((await adminCall(admin.token, org.user.email)).statusCode).toBe(403);
    expect((await adminCall(agent.token, org.user.email)).statusCode).toBe(409);
    expect((await get(admin.token, "/api/auth/me")).json().user.role).toBe("agent");
  });
});

describe("a signed-in route that never checks the session", () => {
  it("answers 500 rather than serve on the cache's word", async () => {
    const app = Fastify();
    registerErrorHandling(app);
    registerAccessControl(app, createAuthenticator(t.database.db));
    app.get("/api/unchecked", { config: { access: "authenticated" } }, async () => ({ secret: "data" }));
    await app.ready();
    const org = await registerOrg(t.app);
    const call = () => app.inject({ method: "GET", url: "/api/unchecked", headers: bearer(org.token) });
    // The first request looked the session up in the database; the second has only the cache's word for it.
    expect((await call()).statusCode).toBe(200);
    const second = await call();
    expect(second.statusCode).toBe(500);
    expect(second.body).not.toContain("secret");
    await app.close();
  });

  it("answers when the route went through its transaction, and refuses an entry that misreads who the route admits", async () => {
    const app = Fastify();
    app.decorate("db", t.database.db);
    registerErrorHandling(app);
    registerAccessControl(app, createAuthenticator(t.database.db));
    app.get("/api/checked", { config: { access: "authenticated" } }, (req) =>
      inRequest(app, req, async (ctx) => ({ role: ctx.role })),
    );
    // A staff-only route whose handler says it admits API keys: a programming error, caught on its first call.
    app.get("/api/misread", { config: { access: "authenticated" } }, (req) =>
      inRequest(app, req, "api_key", async () => ({ secret: "data" })),
    );
    await app.ready();
    const org = await registerOrg(t.app);
    const call = (url: string) => app.inject({ method: "GET", url, headers: bearer(org.token) });
    for (let i = 0; i < 2; i++) expect((await call("/api/checked")).json()).toEqual({ role: "admin" });
    const misread = await call("/api/misread");
    expect(misread.statusCode).toBe(500);
    expect(misread.body).not.toContain("secret");
    await app.close();
  });
});

describe("the cache itself", () => {
  it("forgets an entry after a minute or when its session ends, whichever is first", () => {
    let now = 1_000_000;
    const cache = createSessionCache(() => now);
    const principal = {
      kind: "staff" as const,
      orgId: "o",
      userId: "u",
      role: "agent" as const,
      sessionId: "s",
    };
    cache.set("a", principal, new Date(now + 3_600_000));
    cache.set("b", principal, new Date(now + 10_000));
    expect(cache.get("a")).toEqual(principal);
    now += 10_000;
    expect(cache.get("b")).toBeNull();
    expect(cache.get("a")).not.toBeNull();
    now += 50_000;
    expect(cache.get("a")).toBeNull();
  });
});
