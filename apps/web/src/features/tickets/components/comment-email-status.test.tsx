import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { json, mockApi, renderApp, storeSession, testUser } from "../../../test/render-app.tsx";
import { comment, me, ticket } from "../test/ticket-fixtures.ts";

describe("a reply's email", () => {
  it("shows on each public reply whether its email was sent or failed", async () => {
    const current = ticket({
      comments: [
        comment({ body: "Sent one", author_name: "Alan Turing", email_status: "sent" }),
        comment({ body: "Bounced one", author_name: "Grace Hopper", email_status: "failed" }),
        comment({ body: "A note", author_name: "Ada Lovelace", is_public: false, email_status: null }),
      ],
    });
    storeSession();
    mockApi({
      "GET /api/auth/me": () => json(200, { user: testUser }),
      "GET /api/users": () => json(200, { users: [me] }),
      [`GET /api/tickets/${current.id}`]: () => json(200, { ticket: current }),
    });
    renderApp(`/tickets/${current.id}`);

    const sent = await screen.findByRole("article", { name: "Reply from Alan Turing" });
    expect(within(sent).getByText("Emailed")).toBeInTheDocument();
    const failed = screen.getByRole("article", { name: "Reply from Grace Hopper" });
    expect(within(failed).getByText("Email failed")).toBeInTheDocument();
    const note = screen.getByRole("article", { name: "Internal note from Ada Lovelace" });
    expect(within(note).queryByText(/Email/)).not.toBeInTheDocument();
  });
});
