import type { Rule } from "@cove/contract/automation.ts";
import type { Ticket } from "@cove/contract/tickets.ts";
import { describe, expect, it } from "vitest";
import { client, naughtyStrings, orgForFile, testAppForFile } from "../helpers.ts";

const naughty = naughtyStrings();

const t = testAppForFile();
const org = orgForFile(t);

const call = client(() => t.app);

/** What a text field keeps of s: surrounding whitespace trimmed, nothing else changed. */
const kept = (s: string) => s.trim();

// Each string is a rule's name and its comment; one ticket then runs every rule at once.
describe("automation takes every naughty string as typed", { timeout: 300_000 }, () => {
  it("as rule names and comments: stored, run and shown unchanged, or a clear 400", async () => {
    const expected: [string, string][] = [];
    for (const s of naughty) {
      const res = await call(org, "POST", "/api/automation/rules", {
        name: s.slice(0, 120),
        description: s.slice(0, 1000),
        triggerConditions: { event: "ticket_created", conditions: [] },
        actions: [{ type: "add_comment", comment: s, is_public: false }],
      });
      expect(res.statusCode, JSON.stringify(s)).toBeLessThan(500);
      if (res.statusCode === 201) {
        const rule = res.json().rule as Rule;
        expect(rule.name, JSON.stringify(s)).toBe(kept(s.slice(0, 120)));
        expect(rule.actions[0]?.comment, JSON.stringify(s)).toBe(kept(s));
        expected.push([rule.name, kept(s)]);
      } else {
        expect(res.statusCode, JSON.stringify(s)).toBe(400);
        expect(kept(s) === "" || s.includes("\u0000"), JSON.stringify(s)).toBe(true);
        expect(res.json().error).toEqual(expect.any(String));
      }
    }
    expect(expected.length).toBeGreaterThan(400);
    const created = await call(org, "POST", "/api/tickets", {
      subject: "Naughty target",
      description: "d",
      requester_name: "N T",
      requester_email: "nt@example.com",
    });
    expect(created.statusCode, created.body).toBe(201);
    const ticket = created.json().ticket as Ticket;
    const got = ticket.comments.map((c) => [c.author_name, c.body] as [string, string]);
    const order = (list: [string, string][]) =>
      [...list].sort((a, b) => (a.join("\u0001") < b.join("\u0001") ? -1 : 1));
    expect(order(got)).toEqual(order(expected));
  });
});
