/**
 * A busy team at once: agents creating, updating and replying to tickets while an admin invites, deactivates and
 * reactivates members. On PostgreSQL these run on many connections, so they take row locks against each other; no
 * order of them may end in a deadlock (a 500), and a deactivation must always take effect. PGlite has one connection
 * and runs every transaction alone, so the test needs TEST_DATABASE_URL.
 */
import type { Ticket } from "@cove/contract/tickets.ts";
import type { UserListItem } from "@cove/contract/users.ts";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sessions } from "../../src/db/schema/auth.ts";
import { organizations } from "../../src/db/schema/organizations.ts";
import { hashToken, newToken } from "../../src/platform/auth.ts";
import { addMember, client, onPostgres, registerOrg, testAppForFile, unique } from "../helpers.ts";

const t = testAppForFile();

const call = client(() => t.app);

/** A new session for a member (as sign-in would make one), straight into the table. */
async function sessionFor(orgId: string, userId: string): Promise<string> {
  const token = newToken();
  await t.database.db.insert(sessions).values({
    organizationId: orgId,
    userId,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  return token;
}

/** Answers by status, per kind of request, and the first few unexpected ones in full. */
function tally() {
  const counts = new Map<string, number>();
  const unexpected: string[] = [];
  return {
    counts,
    unexpected,
    record(kind: string, status: number, expected: number[], body: string) {
      const key = `${kind} ${status}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      if (!expected.includes(status) && unexpected.length < 10) unexpected.push(`${key}: ${body.slice(0, 300)}`);
    },
  };
}

describe.skipIf(!onPostgres)("ticket writes and team changes at once (PostgreSQL)", () => {
  it("answers every request without a 5xx, and every deactivation ends the member's access at once", async () => {
    const admin = await registerOrg(t.app);
    const orgId = admin.user.organizationId;
    // Unlimited seats: the test is about locks, not the plan's limit.
    await t.database.db
      .update(organizations)
      .set({ plan: "business", subscriptionStatus: "active" })
      .where(eq(organizations.id, orgId));
    const writers = await Promise.all(Array.from({ length: 8 }, () => addMember(t.database, orgId)));
    const cycled = await Promise.all(Array.from({ length: 3 }, () => addMember(t.database, orgId)));
    const tickets: Ticket[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await call(admin.token, "POST", "/api/tickets", {
        subject: `Zipper broke ${i}`,
        description: "The zipper of my tent broke on the first night.",
        requester_name: "Rosa Diaz",
        requester_email: "rosa@example.com",
      });
      expect(res.statusCode, res.body).toBe(201);
      tickets.push(res.json().ticket as Ticket);
    }

    const seen = tally();
    // The team changes run for at least 2 seconds and 6 rounds (on a busy machine the rounds take longer), and the
    // ticket writes for as long as they do.
    const minimumEnd = Date.now() + 2_000;
    let teamDone = false;
    const statuses = ["open", "pending", "solved", "open"] as const;

    const writer = async (token: string, n: number) => {
      for (let i = 0; !teamDone; i++) {
        const ticket = tickets[(n + i) % tickets.length] as Ticket;
        const kind = i % 3;
        if (kind === 0) {
          const res = await call(token, "POST", `/api/tickets/${ticket.id}/comments`, { body: `Reply ${n}.${i}` });
          seen.record("comment", res.statusCode, [201], res.body);
        } else if (kind === 1) {
          const res = await call(token, "PUT", `/api/tickets/${ticket.id}`, {
            status: statuses[i % statuses.length],
            priority: i % 2 ? "high" : "normal",
          });
          seen.record("update", res.statusCode, [200], res.body);
        } else {
          const res = await call(token, "POST", "/api/tickets", {
            subject: `Question ${n}.${i}`,
            description: "Where is my order?",
            requester_name: "Sam Lee",
            requester_email: "sam@example.com",
          });
          seen.record("create", res.statusCode, [201], res.body);
        }
      }
    };

    const teamChanges = async () => {
      const invited: UserListItem[] = [];
      for (let i = 0; i < 6 || Date.now() < minimumEnd; i++) {
        const member = cycled[i % cycled.length] as (typeof cycled)[number];
        const off = await call(admin.token, "PUT", `/api/users/${member.id}`, { status: "inactive" });
        seen.record("deactivate", off.statusCode, [200], off.body);
        if (off.statusCode === 200) {
          // The moment the deactivation has answered, the member's token no longer works.
          const after = await call(member.token, "GET", "/api/auth/me");
          seen.record("deactivated member's request", after.statusCode, [401], after.body);
        }
        const inv = await call(admin.token, "POST", "/api/users/invite", {
          email: `invitee-${unique()}@example.com`,
          firstName: "Grace",
          lastName: "Hopper",
        });
        seen.record("invite", inv.statusCode, [201], inv.body);
        if (inv.statusCode === 201) invited.push(inv.json().user as UserListItem);
        const on = await call(admin.token, "PUT", `/api/users/${member.id}`, { status: "active" });
        seen.record("reactivate", on.statusCode, [200], on.body);
        member.token = await sessionFor(orgId, member.id);
        const role = await call(admin.token, "PUT", `/api/users/${member.id}`, { role: i % 2 ? "agent" : "admin" });
        seen.record("role", role.statusCode, [200], role.body);
        const gone = invited.shift();
        if (gone && i % 2 === 0) {
          const revoke = await call(admin.token, "DELETE", `/api/users/${gone.id}`);
          seen.record("revoke", revoke.statusCode, [200], revoke.body);
        }
      }
      teamDone = true;
    };

    await Promise.all([...writers.map((w, n) => writer(w.token, n)), teamChanges()]);

    expect(seen.unexpected, JSON.stringify(Object.fromEntries(seen.counts))).toEqual([]);
    expect(seen.counts.get("deactivate 200")).toBeGreaterThanOrEqual(6);
    expect(seen.counts.get("comment 201")).toBeGreaterThan(8);
    expect([...seen.counts.keys()].filter((k) => / 5\d\d$/.test(k))).toEqual([]);
    // Every cycled member ends active (the last step of each round), and a last deactivation holds for good.
    const last = cycled[0] as (typeof cycled)[number];
    const off = await call(admin.token, "PUT", `/api/users/${last.id}`, { status: "inactive" });
    expect(off.statusCode).toBe(200);
    expect((await call(last.token, "GET", "/api/auth/me")).statusCode).toBe(401);
    expect((await call(last.token, "GET", "/api/tickets")).statusCode).toBe(401);
  }, 60_000);
});
