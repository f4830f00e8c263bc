import type { CustomerTicketDetail } from "@cove/contract/portal.ts";
import type { Ticket } from "@cove/contract/tickets.ts";
import { beforeAll, describe, expect, it } from "vitest";
import { bearer, client, naughtySample, registerOrg, testAppWithMail, unique } from "../helpers.ts";
import { askForLink, newIp, portalSignIn } from "../support/portal.ts";

// A sample end to end; all 515 go through the contract in platform/naughty-schemas.test.ts.
const naughty = naughtySample();
const XSS = [
  `<script>alert("x")</script>`,
  `<img src=x onerror=alert(1)>`,
  `"><svg/onload=alert(document.cookie)>`,
  "javascript:alert(1)",
  `{{constructor.constructor('alert(1)')()}}`,
];

const { t, smtp } = testAppWithMail();
let staff: string;
let customer: string;
let slug: string;
beforeAll(async () => {
  const org = await registerOrg(t.app);
  staff = org.token;
  const me = (await t.app.inject({ method: "GET", url: "/api/auth/me", headers: bearer(staff) })).json();
  slug = me.user.organizationSlug;
  customer = (await portalSignIn(t, smtp, slug, `naughty-${unique()}@example.com`)).token;
});

const call = client(() => t.app);
const kept = (s: string) => s.trim();

// Every string of the list through each portal field, one after another: minutes on a busy 2-core machine.
describe("the portal takes naughty strings and XSS payloads as typed", { timeout: 300_000 }, () => {
  it("as a ticket's subject and description: stored, shown to the customer and to staff unchanged, or a clear 400", async () => {
    for (const s of [...XSS, ...naughty]) {
      const res = await call(customer, "POST", "/api/portal/tickets", { subject: s.slice(0, 250), description: s });
      expect(res.statusCode, JSON.stringify(s)).toBeLessThan(500);
      if (res.statusCode !== 201) {
        expect(res.statusCode, JSON.stringify(s)).toBe(400);
        expect(kept(s) === "" || s.includes("\u0000"), JSON.stringify(s)).toBe(true);
        continue;
      }
      const mine = res.json().ticket as CustomerTicketDetail;
      expect(mine.subject, JSON.stringify(s)).toBe(kept(s.slice(0, 250)));
      expect(mine.description, JSON.stringify(s)).toBe(kept(s));
      if (XSS.includes(s)) {
        const seen = (await call(staff, "GET", `/api/tickets/${mine.id}`)).json().ticket as Ticket;
        expect(seen.description).toBe(s);
      }
    }
  });

  it("as replies, and as the customer's name and company", async () => {
    const created = await call(customer, "POST", "/api/portal/tickets", { subject: "Replies", description: "d" });
    const id = (created.json().ticket as CustomerTicketDetail).id;
    const expected: string[] = [];
    for (const s of [...XSS, ...naughty]) {
      const reply = await call(customer, "POST", `/api/portal/tickets/${id}/comments`, { body: s });
      expect(reply.statusCode, JSON.stringify(s)).toBeLessThan(500);
      if (reply.statusCode === 201) expected.push(kept(s));
      else expect(reply.statusCode, JSON.stringify(s)).toBe(400);

      const me = await call(customer, "PUT", "/api/portal/me", { name: s.slice(0, 120), company: s.slice(0, 120) });
      expect(me.statusCode, JSON.stringify(s)).toBeLessThan(500);
      if (me.statusCode === 200) {
        expect(me.json().customer.name, JSON.stringify(s)).toBe(kept(s.slice(0, 120)));
        expect(me.json().customer.company, JSON.stringify(s)).toBe(kept(s.slice(0, 120)) || null);
      } else expect(me.statusCode, JSON.stringify(s)).toBe(400);
    }
    const read = (await call(customer, "GET", `/api/portal/tickets/${id}`)).json().ticket as CustomerTicketDetail;
    expect(read.comments.map((c) => c.body)).toEqual(expected);
    expect(expected.length).toBeGreaterThan(naughty.length - 30);
  });

  it("as an email or a token: never a server error", async () => {
    for (const s of naughty) {
      const link = await askForLink(t, slug, s.slice(0, 300));
      expect([200, 400], JSON.stringify(s)).toContain(link.statusCode);
      const session = await t.app.inject({
        method: "POST",
        url: `/api/public/${slug}/portal/session`,
        payload: { token: s },
        remoteAddress: newIp(),
      });
      expect(session.statusCode, JSON.stringify(s)).toBe(400);
      // A lone surrogate cannot be put in a URL at all; a browser would have replaced it.
      const asPath = encodeURIComponent(s.slice(0, 100).replace(/[\uD800-\uDFFF]/g, "\uFFFD"));
      const slugged = await askForLink(t, asPath, "a@example.com");
      // Other test files share the database: a string such as "true" may be the address of an organization one of
      // them registered, whose portal then rightly answers.
      const { rows } = await t.database.executeSql("select 1 from organizations where slug = $1", [
        decodeURIComponent(asPath).trim().toLowerCase(),
      ]);
      const expected = rows.length > 0 ? [200, 400, 404] : [400, 404];
      expect(expected, JSON.stringify(s)).toContain(slugged.statusCode);
    }
  });
});
