import type { AiStatsAnswer } from "@cove/contract/ai.ts";
import type { ChatSession, ChatStatsAnswer } from "@cove/contract/chat.ts";
import { describe, expect, it } from "vitest";
import { bearer } from "../helpers.ts";
import { demoAppForFile } from "../support/demo.ts";

// The demo is seeded into an empty database only, so this file uses its own in-memory one.
const demo = demoAppForFile("cove-chat-seed");

describe("the demo organization's live chats", () => {
  it("has past and current sessions: one waiting for a person on top, and real figures", async () => {
    const list = (
      await demo.app.inject({ method: "GET", url: "/api/chat/sessions", headers: bearer(demo.token) })
    ).json().sessions as ChatSession[];
    expect(list).toHaveLength(4);
    expect(list[0]).toMatchObject({ waiting_for_human: true, status: "active", assigned_agent: null });
    expect(list.filter((s) => s.status === "closed")).toHaveLength(2);
    const stats = (
      await demo.app.inject({ method: "GET", url: "/api/chat/stats", headers: bearer(demo.token) })
    ).json() as ChatStatsAnswer;
    expect(stats).toMatchObject({ active_chats: 2, total_sessions: 4, resolved_by_ai: 1, handed_off: 3 });
    // Marco answered 3 minutes after the hand-off, Priya 2 minutes after hers.
    expect(stats.avg_response_seconds).toBeCloseTo(150, 0);
    const mia = list.find((s) => s.visitor_name === "Mia Chen");
    const messages = (
      await demo.app.inject({
        method: "GET",
        url: `/api/chat/sessions/${mia?.id}/messages`,
        headers: bearer(demo.token),
      })
    ).json().messages as { sender_type: string }[];
    expect(messages.map((m) => m.sender_type)).toEqual(["ai", "visitor", "ai", "system", "agent", "visitor"]);
  });

  it("logs the assistant's answers in those chats, so its resolution rate agrees with the chats' figures", async () => {
    // The AI Assistant page said "No customer questions in the last 30 days" beside "Live chats resolved: 25%".
    const stats = (
      await demo.app.inject({ method: "GET", url: "/api/ai/stats", headers: bearer(demo.token) })
    ).json() as AiStatsAnswer;
    expect(stats).toMatchObject({ answers: 4, resolved: 1, handed_off: 3, resolution_rate: 0.25, console_answers: 0 });
    // The three hand-offs were customers asking for a person: nothing the assistant failed to answer.
    const unanswered = await demo.app.inject({ method: "GET", url: "/api/ai/unanswered", headers: bearer(demo.token) });
    expect(unanswered.statusCode).toBe(200);
    expect(JSON.stringify(unanswered.json())).not.toContain("kayak");
  });
});
