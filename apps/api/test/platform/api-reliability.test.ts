import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { organizations } from "../../src/db/schema/organizations.ts";
import { addMember, bearer, registerOrg, testAppForFile, ticketFields } from "../helpers.ts";

/** What a program calling the API relies on (issue 33, item 2): idempotent POSTs and per-key rate limits. */
const t = testAppForFile();

async function apiKey(adminToken: string, scope: "read" | "read_write" = "read_write"): Promise<string> {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/settings/api-keys",
    headers: bearer(adminToken),
    payload: { name: "Shop sync", scope },
  });
  expect(res.statusCode).toBe(201);
  return res.json().token;
}

const post = (token: string, key: string | null, payload: object) =>
  t.app.inject({
    method: "POST",
    url: "/api/tickets",
    headers: { ...bearer(token), ...(key === null ? {} : { "idempotency-key": key }) },
    payload,
  });

async function ticketCount(token: string, subject: string): Promise<number> {
  const res = await t.app.inject({ method: "GET", url: "/api/tickets?per_page=100", headers: bearer(token) });
  return res.json().tickets.filter((x: { subject: string }) => x.subject === subject).length;
}

describe("Idempotency-Key", () => {
  it("gives the first answer again and does the work once, for an API key and for a member", async () => {
    const org = await registerOrg(t.app);
    const key = await apiKey(org.token);
    for (const token of [key, org.token]) {
      const fields = ticketFields({ subject: `Order ${token.slice(0, 6)} lost` });
      const first = await post(token, "order-1182-retry", fields);
      expect(first.statusCode).toBe(201);
      expect(first.headers["idempotent-replayed"]).toBeUndefined();
      const again = await post(token, "order-1182-retry", fields);
      expect(again.statusCode).toBe(201);
      expect(again.headers["idempotent-replayed"]).toBe("true");
      expect(again.json().ticket.id).toBe(first.json().ticket.id);
      expect(again.json()).toEqual(first.json());
      expect(await ticketCount(org.token, fields.subject)).toBe(1);
    }
  });

  it("refuses the same key with another body (422) and keeps each caller's keys apart", async () => {
    const org = await registerOrg(t.app);
    const key = await apiKey(org.token);
    expect((await post(key, "k-1", ticketFields({ subject: "First" }))).statusCode).toBe(201);
    const other = await post(key, "k-1", ticketFields({ subject: "Second" }));
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ code: "IDEMPOTENCY_KEY_REUSED" });
    expect(other.json().error).toMatch(/different request/);
    expect(await ticketCount(org.token, "Second")).toBe(0);
    // A member of the same organization, and another organization's key, own their "k-1" separately.
    const member = await addMember(t.database, org.user.organizationId);
    expect((await post(member.token, "k-1", ticketFields({ subject: "Second" }))).statusCode).toBe(201);
    const b = await registerOrg(t.app);
    const theirs = await post(await apiKey(b.token), "k-1", ticketFields({ subject: "First" }));
    expect(theirs.statusCode).toBe(201);
    expect(theirs.headers["idempotent-replayed"]).toBeUndefined();
    expect(await ticketCount(b.token, "First")).toBe(1);
    expect(await ticketCount(org.token, "First")).toBe(1);
  });

  it("does the work once when the same request races itself", async () => {
    const org = await registerOrg(t.app);
    const key = await apiKey(org.token);
    const fields = ticketFields({ subject: "Raced retry" });
    const answers = await Promise.all(Array.from({ length: 12 }, () => post(key, "race-1", fields)));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    const ids = new Set(answers.filter((a) => a.statusCode === 201).map((a) => a.json().ticket.id));
    expect(ids.size).toBe(1);
    for (const busy of answers.filter((a) => a.statusCode === 409)) {
      expect(busy.json().code).toBe("IDEMPOTENCY_IN_PROGRESS");
    }
    expect(await ticketCount(org.token, "Raced retry")).toBe(1);
  });

  it("refuses a key that is empty, too long or not printable, and does nothing", async () => {
    const org = await registerOrg(t.app);
    for (const bad of ["x".repeat(256), "two words", "\u00e9t\u00e9"]) {
      const res = await post(org.token, bad, ticketFields({ subject: "Bad key" }));
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(/Idempotency-Key/);
    }
    expect(await ticketCount(org.token, "Bad key")).toBe(0);
    expect((await post(org.token, "y".repeat(255), ticketFields({ subject: "Long key" }))).statusCode).toBe(201);
  });

  it("keeps a refused answer (a 4xx) for the repeat, as the work it stands for was not done either", async () => {
    const org = await registerOrg(t.app);
    const read = await apiKey(org.token, "read");
    const first = await post(read, "read-1", ticketFields());
    expect(first.statusCode).toBe(403);
    const fields = ticketFields({ subject: "Not found twice" });
    const url = "/api/tickets/00000000-0000-4000-8000-000000000000/comments";
    const once = await t.app.inject({
      method: "POST",
      url,
      headers: { ...bearer(org.token), "idempotency-key": "c-1" },
      payload: { body: fields.description, is_public: true },
    });
    const twice = await t.app.inject({
      method: "POST",
      url,
      headers: { ...bearer(org.token), "idempotency-key": "c-1" },
      payload: { body: fields.description, is_public: true },
    });
    expect(once.statusCode).toBe(404);
    expect(twice.statusCode).toBe(404);
    expect(twice.headers["idempotent-replayed"]).toBe("true");
  });
});

async function atStartOfAMinute(): Promise<void> {
  const second = new Date().getUTCSeconds();
  if (second > 45) await new Promise((r) => setTimeout(r, (61 - second) * 1000));
}

describe("Rate limits per API key", () => {
  it("answer the plan's limit in headers and refuse past it with 429 and Retry-After, raced or not", async () => {
    const org = await registerOrg(t.app);
    const key = await apiKey(org.token);
    await atStartOfAMinute();
    const first = await t.app.inject({ method: "GET", url: "/api/tickets", headers: bearer(key) });
    expect(first.statusCode).toBe(200);
    expect(first.headers["ratelimit-limit"]).toBe("300");
    expect(first.headers["ratelimit-remaining"]).toBe("299");
    expect(Number(first.headers["ratelimit-reset"])).toBeGreaterThan(0);
    expect(Number(first.headers["ratelimit-reset"])).toBeLessThanOrEqual(60);
    const burst = await Promise.all(
      Array.from({ length: 320 }, () => t.app.inject({ method: "GET", url: "/api/tickets", headers: bearer(key) })),
    );
    const refused = burst.filter((r) => r.statusCode === 429);
    expect(burst.filter((r) => r.statusCode === 200)).toHaveLength(299);
    expect(refused).toHaveLength(21);
    expect(refused[0]?.json().error).toMatch(/more than 300 requests this minute \(the Growth plan's limit\)/);
    expect(Number(refused[0]?.headers["retry-after"])).toBeGreaterThan(0);
    expect(refused[0]?.headers["ratelimit-remaining"]).toBe("0");
    // Another key, and the members' own sign-in, are not affected.
    const other = await t.app.inject({ method: "GET", url: "/api/tickets", headers: bearer(await apiKey(org.token)) });
    expect(other.statusCode).toBe(200);
    const member = await t.app.inject({ method: "GET", url: "/api/tickets", headers: bearer(org.token) });
    expect(member.statusCode).toBe(200);
    expect(member.headers["ratelimit-limit"]).toBeUndefined();
  });

  it("follow the plan: Business keys get 1,000 a minute", async () => {
    const org = await registerOrg(t.app);
    await t.database.db
      .update(organizations)
      .set({ plan: "business" })
      .where(eq(organizations.id, org.user.organizationId));
    const key = await apiKey(org.token);
    const res = await t.app.inject({ method: "GET", url: "/api/tickets", headers: bearer(key) });
    expect(res.headers["ratelimit-limit"]).toBe("1000");
  });
});
