import type { Ticket } from "@cove/contract/tickets.ts";
import { describe, expect, it } from "vitest";
import { bearer } from "../helpers.ts";
import { demoAppForFile } from "../support/demo.ts";

// The demo is seeded into an empty database only, so this file uses its own in-memory one.
const demo = demoAppForFile("cove-ticket-seed");

describe("the demo organization's tickets", () => {
  it("have every reply in the past, a solved ticket solved after its replies, and the history behind each", async () => {
    const list = (
      await demo.app.inject({ method: "GET", url: "/api/tickets?limit=100", headers: bearer(demo.token) })
    ).json().tickets as { id: string }[];
    expect(list.length).toBeGreaterThan(10);
    const now = Date.now();
    for (const { id } of list) {
      const ticket = (
        await demo.app.inject({ method: "GET", url: `/api/tickets/${id}`, headers: bearer(demo.token) })
      ).json().ticket as Ticket;
      // The activity tells how the ticket got where it is: created first, nothing in the future, the last status
      // change to the status it has, and an assigned ticket's assignment.
      const activity = [...ticket.activity].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
      expect(activity[0]?.type, `#${ticket.ticket_number}`).toBe("created");
      for (const event of activity) expect(Date.parse(event.created_at)).toBeLessThanOrEqual(now);
      const statuses = activity.filter((e) => e.type === "status");
      if (ticket.status === "open") expect(statuses).toEqual([]);
      else expect(statuses.at(-1)?.to_value, `#${ticket.ticket_number}`).toBe(ticket.status);
      if (ticket.assignee_first_name) {
        expect(activity.find((e) => e.type === "assignee")?.to_value).toBe(
          `${ticket.assignee_first_name} ${ticket.assignee_last_name}`,
        );
      }
      for (const comment of ticket.comments) {
        const at = Date.parse(comment.created_at);
        // A reply half an hour from now (a ticket seeded a moment ago) read as written in the future.
        expect(at, `#${ticket.ticket_number}: a reply in the future`).toBeLessThanOrEqual(now);
        expect(at).toBeGreaterThanOrEqual(Date.parse(ticket.created_at));
        if (ticket.solved_at) {
          expect(at, `#${ticket.ticket_number}: solved before its reply`).toBeLessThanOrEqual(
            Date.parse(ticket.solved_at),
          );
        }
      }
    }
  });
});
