import type { TicketEmail } from "@cove/contract/email.ts";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { findOpenDialog, json, mockApi, renderApp, storeSession, testUser } from "../../../test/render-app.tsx";
import { comment, me, ticket } from "../../tickets/test/ticket-fixtures.ts";
import { emailDocument } from "./email-frame.ts";

const HOSTILE =
  '<p onclick="steal()">Hello, <b>the lamp</b> arrived <span style="color:red">broken</span>.</p>' +
  '<script>alert(1)</script><img src="https://tracker.example/p.gif"><img src="data:image/png;base64,iVBORw0KGgo=">' +
  '<a href="https://shop.example/order">my order</a><form action="https://evil.example"><input name="pw"></form>' +
  '<iframe src="https://evil.example"></iframe><a href="javascript:alert(2)">click</a>';

describe("an email's HTML, made safe to look at", () => {
  it("keeps the formatting and inline images, and drops scripts, handlers, forms, frames and images from the web", () => {
    const doc = emailDocument(HOSTILE);
    expect(doc).toContain("<b>the lamp</b>");
    expect(doc).toContain('style="color:red"');
    expect(doc).toContain('src="data:image/png;base64,iVBORw0KGgo="');
    expect(doc).toContain('target="_blank"');
    expect(doc).toContain("default-src 'none'");
    for (const gone of ["<script", "onclick", "tracker.example", "<form", "<input", "<iframe", "javascript:"]) {
      expect(doc).not.toContain(gone);
    }
  });
});

describe("View original email on a ticket", () => {
  it("opens a received email's HTML in a sandboxed frame, from the message it came as", async () => {
    const reply = comment({ body: "Hello, the lamp arrived broken.", author_name: "Grace Hopper" });
    const current = ticket({ comments: [reply] });
    const email: TicketEmail = {
      id: "3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a",
      comment_id: reply.id,
      address: "grace@example.com",
      subject: "Re: Broken lamp",
      received_at: "2026-11-25T02:00:00.000Z",
      has_html: true,
    };
    storeSession();
    mockApi({
      "GET /api/auth/me": () => json(200, { user: testUser }),
      "GET /api/users": () => json(200, { users: [me] }),
      [`GET /api/tickets/${current.id}`]: () => json(200, { ticket: current }),
      [`GET /api/tickets/${current.id}/emails`]: () => json(200, { emails: [email] }),
      [`GET /api/email/messages/${email.id}`]: () =>
        json(200, { email: { ...email, ticket_id: current.id, html: HOSTILE } }),
    });
    const { user } = renderApp(`/tickets/${current.id}`);
    const item = await screen.findByRole("article", { name: "Reply from Grace Hopper" });
    // The description did not come by email: no button there.
    expect(within(screen.getByRole("article", { name: "Description" })).queryByText("View original email")).toBeNull();
    await user.click(await within(item).findByRole("button", { name: "View original email" }));
    const dialog = await findOpenDialog("dialog", { name: "Re: Broken lamp" });
    const frame = (await within(dialog).findByTitle("Original email")) as HTMLIFrameElement;
    expect(frame.getAttribute("sandbox")).toBe("allow-popups allow-popups-to-escape-sandbox");
    const doc = frame.getAttribute("srcdoc") ?? "";
    expect(doc).toContain("<b>the lamp</b>");
    expect(doc).not.toContain("<script");
    expect(within(dialog).getByText(/images from the web are not loaded/)).toBeInTheDocument();
  });
});
