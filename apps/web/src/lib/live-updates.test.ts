import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it, vi } from "vitest";
import { createLiveUpdates, staleQueries } from "./live-updates.ts";
import type { LiveEvent } from "./realtime.ts";

const TICKET = "5c0d1f3a-8b2e-4c7d-9e1f-2a3b4c5d6e7f";
const event = (id: number, type: LiveEvent["type"], data: Record<string, unknown> = {}): LiveEvent => ({
  id,
  type,
  actor: { kind: "staff", id: "u" },
  occurred_at: "2026-11-24T10:00:00.000Z",
  data,
});

describe("live updates", () => {
  it("knows what each event makes out of date", () => {
    expect(staleQueries(event(1, "ticket.created", { ticket_id: TICKET }))).toEqual([
      ["tickets", "list"],
      ["tickets", "stats"],
      ["organizations", "stats"],
      ["contacts"],
    ]);
    expect(staleQueries(event(2, "comment.added", { ticket_id: TICKET }))).toContainEqual([
      "tickets",
      "detail",
      TICKET,
    ]);
    expect(staleQueries(event(3, "notification.created"))).toEqual([["notifications"]]);
    expect(staleQueries(event(4, "member.changed"))).toContainEqual(["users", "list"]);
    // A solve sends a survey; an answer changes the dashboard's satisfaction figures.
    expect(staleQueries(event(5, "ticket.status_changed", { ticket_id: TICKET }))).toContainEqual(["csat", "stats"]);
    expect(staleQueries(event(6, "csat.rated", { ticket_id: TICKET, rating: "good" }))).toEqual([["csat", "stats"]]);
  });

  it("refetches each query once for a burst of events, and an event that came on two topics once", async () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    const invalidate = vi.spyOn(client, "invalidateQueries");
    const live = createLiveUpdates(client, 100);
    live.apply(event(10, "ticket.updated", { ticket_id: TICKET }));
    live.apply(event(10, "ticket.updated", { ticket_id: TICKET }));
    live.apply(event(11, "ticket.status_changed", { ticket_id: TICKET }));
    expect(invalidate).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(100);
    expect(invalidate.mock.calls.map(([filters]) => filters?.queryKey)).toEqual([
      ["tickets", "list"],
      ["tickets", "stats"],
      ["tickets", "detail", TICKET],
      ["contacts"],
      ["csat", "stats"],
    ]);
    live.dispose();
    vi.useRealTimers();
  });
});
