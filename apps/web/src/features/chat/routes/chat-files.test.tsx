import type { ChatMessage, ChatSession } from "@cove/contract/chat.ts";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { FakeXhr, fakeUploadsInEachTest } from "../../../test/fake-xhr.ts";
import { json, mockApi, renderApp, storeSession, testUser } from "../../../test/render-app.tsx";

const current: ChatSession = {
  id: "00000000-0000-4000-8000-00000000a001",
  visitor_name: "Lee Park",
  visitor_email: "lee@example.com",
  status: "active",
  started_at: new Date(Date.now() - 600_000).toISOString(),
  ended_at: null,
  last_message: "photo.png",
  last_message_at: new Date().toISOString(),
  waiting_for_human: true,
  waiting_since: new Date().toISOString(),
  assigned_agent: null,
  handed_off: true,
  resolved_by_ai: false,
  ticket_id: null,
};

const photo: ChatMessage = {
  id: "00000000-0000-4000-8000-00000000b001",
  sender_type: "visitor",
  sender_name: null,
  message: "photo.png",
  sources: [],
  created_at: new Date().toISOString(),
  attachment: {
    id: "00000000-0000-4000-8000-00000000c001",
    comment_id: null,
    filename: "photo.png",
    content_type: "image/png",
    size: 900,
  },
};

fakeUploadsInEachTest();

describe("files in a live chat (agent)", () => {
  it("shows a visitor's picture inline and sends the agent's file as a message of its own", async () => {
    storeSession();
    const fetchMock = mockApi({
      "GET /api/auth/me": () => json(200, { user: testUser }),
      "GET /api/chat/sessions": () => json(200, { sessions: [current] }),
      "GET /api/chat/stats": () =>
        json(200, {
          active_chats: 1,
          closed_today: 0,
          avg_response_seconds: null,
          total_sessions: 1,
          resolved_by_ai: 0,
          handed_off: 1,
        }),
      [`GET /api/chat/sessions/${current.id}/messages`]: () => json(200, { messages: [photo] }),
      [`GET /api/chat/sessions/${current.id}/files/${photo.attachment?.id}`]: () =>
        new Response("png", { headers: { "content-type": "image/png" } }),
    });
    FakeXhr.answer = (body) => ({
      status: 201,
      body: {
        message: {
          id: "00000000-0000-4000-8000-00000000b002",
          sender_type: "agent",
          sender_name: "Ada",
          message: body.name,
          sources: [],
          created_at: new Date().toISOString(),
          attachment: {
            id: "00000000-0000-4000-8000-00000000c002",
            comment_id: null,
            filename: body.name,
            content_type: "application/pdf",
            size: body.size,
          },
        },
      },
    });
    const { user } = renderApp(`/chat?session=${current.id}`);
    const fromLee = await screen.findByRole("article", { name: "Message from Lee Park" });
    expect(await within(fromLee).findByRole("img", { name: "photo.png" })).toHaveAttribute("src", "blob:file");
    const fetched = fetchMock.mock.calls.find(([url]) => String(url).includes("/files/"));
    expect(new Headers(fetched?.[1]?.headers).get("Authorization")).toMatch(/^Bearer /);

    await user.upload(screen.getByLabelText("Attach a file (at most 5 MB)"), new File(["%PDF"], "returns.pdf"));
    const mine = await screen.findByRole("article", { name: "Message from Ada" });
    expect(within(mine).getByRole("button", { name: /returns\.pdf/ })).toBeInTheDocument();
    expect(FakeXhr.sent[0]?.url).toBe(`/api/chat/sessions/${current.id}/files?filename=returns.pdf`);
    expect(FakeXhr.sent[0]?.headers.Authorization).toMatch(/^Bearer /);
  });
});
