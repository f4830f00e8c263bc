import type { Ticket, TicketListAnswer } from "@cove/contract/tickets.ts";
import { describe, expect, it } from "vitest";
import { client, naughtySample, orgForFile, testAppForFile } from "../helpers.ts";

// A sample end to end; all 515 go through the contract in platform/naughty-schemas.test.ts.
const naughty = naughtySample();

const t = testAppForFile();
const org = orgForFile(t);

const call = client(() => t.app);

/** What a text field keeps of s: surrounding whitespace trimmed (zod's trim), nothing else changed. */
const kept = (s: string) => s.trim();

/** The tickets this file created (the first test's): a search may find these and nothing else. */
const ours = new Set<string>();

// Each test sends all 515 strings one after another: minutes, not seconds, on a busy 2-core machine.
describe("tickets take naughty strings as typed", { timeout: 180_000 }, () => {
  it("as subject and description: stored and read back unchanged, or a clear 400", async () => {
    for (const s of naughty) {
      const res = await call(org, "POST", "/api/tickets", {
        subject: s.slice(0, 250),
        description: s,
        requester_name: "Naughty Tester",
        requester_email: "naughty@example.com",
      });
      expect(res.statusCode, JSON.stringify(s)).toBeLessThan(500);
      if (res.statusCode === 201) {
        const created = res.json().ticket as Ticket;
        ours.add(created.id);
        const read = (await call(org, "GET", `/api/tickets/${created.id}`)).json().ticket as Ticket;
        expect(read.subject, JSON.stringify(s)).toBe(kept(s.slice(0, 250)));
        expect(read.description, JSON.stringify(s)).toBe(kept(s));
      } else {
        expect(res.statusCode, JSON.stringify(s)).toBe(400);
        expect(kept(s) === "" || s.includes("\u0000"), JSON.stringify(s)).toBe(true);
        expect(res.json().error).toEqual(expect.any(String));
      }
    }
  });

  it("as comments: stored and read back unchanged, or a clear 400", async () => {
    const created = await call(org, "POST", "/api/tickets", {
      subject: "Comment target",
      description: "d",
      requester_name: "N T",
      requester_email: "nt@example.com",
    });
    const id = (created.json().ticket as Ticket).id;
    const expected: string[] = [];
    for (const s of naughty) {
      const res = await call(org, "POST", `/api/tickets/${id}/comments`, { body: s, is_public: false });
      expect(res.statusCode, JSON.stringify(s)).toBeLessThan(500);
      if (res.statusCode === 201) expected.push(kept(s));
      else expect(res.statusCode, JSON.stringify(s)).toBe(400);
    }
    const read = (await call(org, "GET", `/api/tickets/${id}`)).json().ticket as Ticket;
    expect(read.comments.map((c) => c.body)).toEqual(expected);
    expect(expected.length).toBeGreaterThan(naughty.length - 30);
  });

  it("as search: the organization's own tickets that match, or a clear 400; never a server error", async () => {
    const comment = (await call(org, "GET", "/api/tickets?search=Comment+target")).json() as TicketListAnswer;
    for (const ticket of comment.tickets) ours.add(ticket.id);
    let found = 0;
    for (const s of naughty) {
      const res = await call(org, "GET", `/api/tickets?search=${encodeURIComponent(s.slice(0, 200))}`);
      expect(res.statusCode, JSON.stringify(s)).toBeLessThan(500);
      if (res.statusCode !== 200) {
        expect(res.statusCode, JSON.stringify(s)).toBe(400);
        continue;
      }
      const { tickets } = res.json() as TicketListAnswer;
      for (const ticket of tickets) expect(ours.has(ticket.id), JSON.stringify(s)).toBe(true);
      if (tickets.length > 0) found++;
    }
    // Most strings are words some subject holds (the subjects are the same strings): search finds them.
    expect(found).toBeGreaterThan(naughty.length / 4);
  });
});
