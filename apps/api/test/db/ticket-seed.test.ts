import type { Ticket } from "@cove/contract/tickets.ts";
import { describe, expect, it } from "vitest";
import { bearer } from "../helpers.ts";
import { demoAppForFile } from "../support/demo.ts";

// The demo is seeded into an empty database only, so this file uses its own in-memory one.
const demo = demoAppForFile("cove-ticket-seed");

describe("the demo organization's tickets", () => {
  it("have every reply in the past, and a solved ticket solved after its replies", async () => {
    const list = (
      await demo.app.inject({ method: "GET", url: "/api/tickets?limit=100", headers: bearer(demo.token) })
    ).json().tickets as { id: string }[];
    expect(list.length).toBeGreaterThan(10);
    const now = Date.now();
    for (const { id } of list) {
      const ticket = (
        await demo.app.inject({ method: "GET", url: `/api/tickets/${id}`, headers: bearer(demo.token) })
      ).json().ticket as Ticket;
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
