import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { organizations } from "../../src/db/schema/organizations.ts";
import { bearer, registerOrg, testAppForFile } from "../helpers.ts";

/** The public API: an organization's keys (Settings > Integrations) act on its tickets, within their scope. */
const t = testAppForFile();

async function key(adminToken: string, scope: "read" | "read_write", name = "Zapier") {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/settings/api-keys",
    headers: bearer(adminToken),
    payload: { name, scope },
  });
  expect(res.statusCode).toBe(201);
  return res.json() as { token: string; api_key: { id: string } };
}

const ticket = {
  subject: "Order 1182 never arrived",
  description: "Tracking stopped a week ago.",
  requester_name: "Sam Lee",
  requester_email: "sam@example.com",
};

describe("API keys", () => {
  it("read and write tickets as the key, with the key named in the activity and the ticket's source api", async () => {
    const org = await registerOrg(t.app);
    const { token } = await key(org.token, "read_write", "Zapier");
    expect(token.startsWith("ck.")).toBe(true);
    const created = await t.app.inject({
      method: "POST",
      url: "/api/tickets",
      headers: bearer(token),
      payload: ticket,
    });
    expect(created.statusCode).toBe(201);
    const { id, source, activity } = created.json().ticket;
    expect(source).toBe("api");
    expect(activity[0].actor_name).toBe("API: Zapier");
    const list = await t.app.inject({ method: "GET", url: "/api/tickets", headers: bearer(token) });
    expect(list.statusCode).toBe(200);
    expect(list.json().tickets.map((x: { id: string }) => x.id)).toContain(id);
    const put = await t.app.inject({
      method: "PUT",
      url: `/api/tickets/${id}`,
      headers: bearer(token),
      payload: { status: "pending" },
    });
    expect(put.statusCode).toBe(200);
    const me = await t.app.inject({ method: "GET", url: "/api/tickets?assignee_id=me", headers: bearer(token) });
    expect(me.statusCode).toBe(400);
    // Staff-only routes refuse a key.
    for (const url of ["/api/users", "/api/tickets/stats/overview", "/api/notifications"]) {
      expect((await t.app.inject({ method: "GET", url, headers: bearer(token) })).statusCode).toBe(403);
    }
  });

  it("keep a read key to reading, stop working once revoked, and never reach another organization", async () => {
    const a = await registerOrg(t.app);
    const b = await registerOrg(t.app);
    const read = await key(a.token, "read");
    const refused = await t.app.inject({
      method: "POST",
      url: "/api/tickets",
      headers: bearer(read.token),
      payload: ticket,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatch(/can only read/);
    const theirs = await t.app.inject({
      method: "POST",
      url: "/api/tickets",
      headers: bearer(b.token),
      payload: ticket,
    });
    const theirId = theirs.json().ticket.id as string;
    const peek = await t.app.inject({ method: "GET", url: `/api/tickets/${theirId}`, headers: bearer(read.token) });
    expect(peek.statusCode).toBe(404);
    const list = await t.app.inject({ method: "GET", url: "/api/tickets", headers: bearer(read.token) });
    expect(list.json().tickets).toEqual([]);
    await t.app.inject({
      method: "DELETE",
      url: `/api/settings/api-keys/${read.api_key.id}`,
      headers: bearer(a.token),
    });
    expect((await t.app.inject({ method: "GET", url: "/api/tickets", headers: bearer(read.token) })).statusCode).toBe(
      401,
    );
    expect(
      (await t.app.inject({ method: "GET", url: "/api/tickets", headers: bearer("ck.nonsense-token-000000") }))
        .statusCode,
    ).toBe(401);
  });

  it("stop working when the organization moves to a plan without API access", async () => {
    const org = await registerOrg(t.app);
    const { token } = await key(org.token, "read");
    expect((await t.app.inject({ method: "GET", url: "/api/tickets", headers: bearer(token) })).statusCode).toBe(200);
    await t.database.db
      .update(organizations)
      .set({ plan: "starter", subscriptionStatus: "active" })
      .where(eq(organizations.id, org.user.organizationId));
    expect((await t.app.inject({ method: "GET", url: "/api/tickets", headers: bearer(token) })).statusCode).toBe(401);
  });
});
