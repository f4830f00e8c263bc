import type { EmailSettings } from "@cove/contract/settings.ts";
import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { json, mockApi, renderApp, storeSession, testUser } from "../../../test/render-app.tsx";

const settings = (overrides: Partial<EmailSettings> = {}): EmailSettings => ({
  sender_name: "Engines Support",
  reply_to: null,
  signature: "",
  inbound_address: "analytical-engines@in.cove.example",
  acknowledge: true,
  ...overrides,
});

function signedIn(current: EmailSettings) {
  storeSession();
  return mockApi({
    "GET /api/auth/me": () => json(200, { user: testUser }),
    "GET /api/settings/email": () => json(200, current),
    "PUT /api/settings/email": (init) => json(200, { ...current, ...JSON.parse(String(init?.body)) }),
    "GET /api/email/mailboxes": () => json(200, { mailboxes: [] }),
    "GET /api/email/unfiled": () =>
      json(200, {
        messages: [
          {
            id: "5f0c6c58-8a8e-4d43-9f51-2f9c7c1d2e3f",
            received_at: "2026-11-25T01:00:00.000Z",
            address: "mailer-daemon@mx.example.com",
            subject: "Undelivered Mail Returned to Sender",
            status: "ignored",
            reason: "A delivery or disposition report (multipart/report).",
            ticket_id: null,
            has_raw: true,
          },
          {
            id: "0b8f5a8e-7a1d-4f0e-9a43-8b1f8e2c6d11",
            received_at: "2026-11-25T01:01:00.000Z",
            address: "robot@example.com",
            subject: "Alert 11",
            status: "received",
            reason: "More than 10 messages a minute from this sender: filed without an acknowledgement.",
            ticket_id: "a3b1c2d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d",
            has_raw: false,
          },
        ],
      }),
  });
}

describe("Email Settings", () => {
  it("shows the inbound address with how to forward Gmail and Outlook to it", async () => {
    signedIn(settings());
    renderApp("/settings?tab=email");

    expect(await screen.findByText("analytical-engines@in.cove.example")).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Forward from Gmail or Google Workspace" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Forward from Outlook or Microsoft 365" })).toBeInTheDocument();
    expect(await screen.findByText("Undelivered Mail Returned to Sender")).toBeInTheDocument();
    expect(screen.getByText("A delivery or disposition report (multipart/report).")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Download message" })).toBeInTheDocument();
  });

  it("lists mail filed past the loop guard with a link to its ticket", async () => {
    signedIn(settings());
    renderApp("/settings?tab=email");

    expect(await screen.findByText("Alert 11")).toBeInTheDocument();
    expect(
      screen.getByText("More than 10 messages a minute from this sender: filed without an acknowledgement."),
    ).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Open ticket" })).toHaveAttribute(
      "href",
      "/tickets/a3b1c2d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d",
    );
  });

  it("says when the server receives no mail yet", async () => {
    signedIn(settings({ inbound_address: null }));
    renderApp("/settings?tab=email");

    expect(await screen.findByText(/Receiving mail is not set up on this server yet/)).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: /Forward from Gmail/ })).not.toBeInTheDocument();
  });

  it("turns the acknowledgement of new tickets off", async () => {
    const fetchMock = signedIn(settings());
    const { user } = renderApp("/settings?tab=email");

    const box = await screen.findByRole("checkbox", { name: /Acknowledge new tickets by email/ });
    expect(box).toBeChecked();
    await user.click(box);
    await user.click(screen.getByRole("button", { name: "Save changes" }));

    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === "PUT")).toBe(true));
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === "PUT");
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({
      sender_name: "Engines Support",
      reply_to: "",
      signature: "",
      acknowledge: false,
    });
  });
});
