import type { UserListAnswer, UserListItem } from "@cove/contract/users.ts";
import { beforeAll, describe, expect, it } from "vitest";
import { bearer, naughtySample, orgForFile, testAppForFile, unique } from "../helpers.ts";

// A sample end to end; all 515 go through the contract in platform/naughty-schemas.test.ts.
const naughty = naughtySample();

const t = testAppForFile();
const admin = orgForFile(t);
beforeAll(async () => {
  // Every string becomes a member: no seat limit in the way.
  await t.database.executeSql(
    "update organizations set plan = 'business', subscription_status = 'active' where id = $1",
    [admin.user.organizationId],
  );
});

/** What a name field keeps of s: surrounding whitespace trimmed (zod's trim), nothing else changed. */
const kept = (s: string) => s.trim();
const fits = (s: string) => [...s.trim()].length >= 1 && [...s.trim()].length <= 80;

const invite = (payload: object) =>
  t.app.inject({ method: "POST", url: "/api/users/invite", headers: bearer(admin.token), payload });

describe("invitations take naughty strings as typed", () => {
  it("as first and last names: stored and listed unchanged, or a clear 400", async () => {
    const expected = new Map<string, { first: string; last: string }>();
    for (const s of naughty) {
      const res = await invite({ email: `n-${unique()}@example.com`, firstName: s, lastName: `${s} Jr` });
      expect(res.statusCode, JSON.stringify(s)).toBeLessThan(500);
      if (res.statusCode === 201) {
        const user = res.json().user as UserListItem;
        expect(user.first_name, JSON.stringify(s)).toBe(kept(s));
        expected.set(user.id, { first: kept(s), last: kept(`${s} Jr`) });
      } else {
        expect(res.statusCode, JSON.stringify(s)).toBe(400);
        expect(fits(s) && fits(`${s} Jr`) && !s.includes("\u0000"), JSON.stringify(s)).toBe(false);
        expect(res.json().error).toEqual(expect.any(String));
      }
    }
    expect(expected.size).toBeGreaterThan(naughty.length - 30);
    const list = await t.app.inject({ method: "GET", url: "/api/users", headers: bearer(admin.token) });
    const users = (list.json() as UserListAnswer).users;
    for (const [id, names] of expected) {
      const user = users.find((u) => u.id === id);
      expect(user?.first_name).toBe(names.first);
      expect(user?.last_name).toBe(names.last);
    }
    // Every invitation email was written, whatever the names in it.
    const states = async () =>
      (
        await t.database.executeSql(
          `select state, count(*)::int as n from ${t.jobsSchema}.job where name = 'send-mail' group by state`,
        )
      ).rows as { state: string; n: number }[];
    for (let i = 0; i < 600 && (await states()).some((r) => r.state !== "completed"); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await states()).toEqual([{ state: "completed", n: expected.size }]);
  }, 120_000);

  it("as emails: accepted only when they are email addresses, never a server error", async () => {
    for (const s of naughty) {
      const res = await invite({ email: s, firstName: "N", lastName: "T" });
      expect(res.statusCode, JSON.stringify(s)).toBeLessThan(500);
      if (res.statusCode !== 201) expect([400, 409], JSON.stringify(s)).toContain(res.statusCode);
    }
  });

  it("as invitation tokens and accepted names: never a server error", async () => {
    for (const s of naughty) {
      const lookup = await t.app.inject({ method: "POST", url: "/api/auth/invite-details", payload: { token: s } });
      expect(lookup.statusCode, JSON.stringify(s)).toBeLessThan(500);
      const accept = await t.app.inject({
        method: "POST",
        url: "/api/auth/accept-invite",
        payload: { token: s, firstName: s, lastName: s, password: "long enough password" },
        remoteAddress: `192.0.2.${(naughty.indexOf(s) % 250) + 1}`,
      });
      expect(accept.statusCode, JSON.stringify(s)).toBeLessThan(500);
    }
  });
});
