/**
 * A numbered page past the middle of the list is read from the list's end (tickets.list.ts, listPage): every page,
 * in every order and filter, must hold exactly the tickets the whole list holds at its place, and another
 * organization's member must see none of them at any page.
 */
import { TICKET_PRIORITIES, TICKET_STATUSES, type Ticket, type TicketListAnswer } from "@cove/contract/tickets.ts";
import { beforeAll, describe, expect, it } from "vitest";
import { client, registerOrg, testAppForFile } from "../helpers.ts";

const t = testAppForFile();

type Session = Awaited<ReturnType<typeof registerOrg>>;
const call = client(() => t.app);
const list = async (who: Session, query: string) => {
  const res = await call(who, "GET", `/api/tickets?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TicketListAnswer;
};

describe("numbered pages", () => {
  let org: Session;
  let other: Session;
  beforeAll(async () => {
    org = await registerOrg(t.app);
    other = await registerOrg(t.app);
    const created: Ticket[] = [];
    for (let i = 0; i < 31; i++) {
      const res = await call(org, "POST", "/api/tickets", {
        subject: `Ticket ${i}`,
        description: `Ticket number ${i} of the pages test.`,
        requester_name: "Sam Lee",
        requester_email: "sam@example.com",
        priority: TICKET_PRIORITIES[i % TICKET_PRIORITIES.length],
      });
      expect(res.statusCode, res.body).toBe(201);
      created.push(res.json().ticket as Ticket);
    }
    // Changes out of creation order, so the list's order (most recently updated first) is not the tickets' numbers'.
    for (const [i, ticket] of created.entries()) {
      if (i % 3 !== 0) continue;
      const status = TICKET_STATUSES[i % TICKET_STATUSES.length];
      const res = await call(org, "PUT", `/api/tickets/${ticket.id}`, { status });
      expect(res.statusCode, res.body).toBe(200);
    }
  });

  it("hold the tickets the whole list holds at their place, from either end, filtered or not, in both orders", async () => {
    for (const filter of ["", "status=open", "priority=high", "assignee_id=unassigned", "status=pending"]) {
      for (const sort of ["", "sort=sla_due"]) {
        const base = [filter, sort].filter(Boolean).join("&");
        const whole = await list(org, `${base}&limit=100`);
        const total = whole.pagination.total;
        expect(whole.tickets).toHaveLength(total);
        for (const limit of [4, 7]) {
          const pages = Math.ceil(total / limit);
          for (let page = 1; page <= pages + 2; page++) {
            const answer = await list(org, `${base}&limit=${limit}&page=${page}`);
            const expected = whole.tickets.slice((page - 1) * limit, page * limit);
            expect(answer.tickets, `${base} limit=${limit} page=${page}`).toEqual(expected);
            expect(answer.pagination).toMatchObject({ page, limit, total, pages });
          }
        }
      }
    }
  });

  it("show another organization's member none of them, whatever the page", async () => {
    const mine = await list(org, "limit=4&page=7");
    expect(mine.tickets.length).toBeGreaterThan(0);
    for (const page of [1, 4, 7, 8]) {
      const theirs = await list(other, `limit=4&page=${page}`);
      expect(theirs.tickets).toEqual([]);
      expect(theirs.pagination.total).toBe(0);
    }
    const res = await call(other, "GET", `/api/tickets/${mine.tickets[0]?.id}`);
    expect(res.statusCode).toBe(404);
  });
});
