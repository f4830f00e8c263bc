import type { Mailbox } from "@cove/contract/mailboxes.ts";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { json, mockApi, renderApp, storeSession, testUser } from "../../../test/render-app.tsx";
import { timeLeft } from "./mailbox-import.tsx";

const mailbox = (overrides: Partial<Mailbox> = {}): Mailbox => ({
  id: "0b6f1f1e-33a4-4c55-9a77-1f2c3d4e5f60",
  host: "imap.example.com",
  port: 993,
  tls: true,
  user: "support@example.com",
  folder: "INBOX",
  status: "importing",
  last_error: null,
  progress: {
    total: 2000,
    imported: 1180,
    skipped: 15,
    failed: 5,
    remaining: 800,
    per_second: 20,
    eta_seconds: 40 * 60,
  },
  connected_at: "2026-11-25T06:00:00.000Z",
  checked_at: "2026-11-25T06:10:00.000Z",
  history_done_at: null,
  ...overrides,
});

function signedIn(mailboxes: Mailbox[], connect?: (body: Record<string, unknown>) => Response) {
  storeSession();
  return mockApi({
    "GET /api/auth/me": () => json(200, { user: testUser }),
    "GET /api/settings/email": () =>
      json(200, { sender_name: "", reply_to: null, signature: "", inbound_address: null, acknowledge: true }),
    "GET /api/email/unfiled": () => json(200, { messages: [] }),
    "GET /api/email/mailboxes": () => json(200, { mailboxes }),
    "POST /api/email/mailboxes": (init) =>
      connect ? connect(JSON.parse(String(init?.body))) : json(201, { mailbox: mailbox() }),
    [`POST /api/email/mailboxes/${mailbox().id}/pause`]: () => json(200, { mailbox: mailbox({ status: "paused" }) }),
  });
}

describe("Import a mailbox (Email Settings)", () => {
  it("shows the import's progress bar, its counts and the time left", async () => {
    signedIn([mailbox()]);
    renderApp("/settings?tab=email");

    const bar = await screen.findByRole("progressbar", { name: "Import of support@example.com" });
    expect(bar).toHaveAttribute("aria-valuenow", "1200");
    expect(bar).toHaveAttribute("aria-valuemax", "2000");
    expect(screen.getByText(/1,200 of 2,000 messages · 1,180 imported · 15 skipped · 5 failed/)).toBeInTheDocument();
    expect(screen.getByText(/About 40 minutes left/)).toBeInTheDocument();
    expect(screen.getByText(/imap\.example\.com:993 \(TLS\) · Importing/)).toBeInTheDocument();
  });

  it("pauses an import", async () => {
    const fetchMock = signedIn([mailbox()]);
    const { user } = renderApp("/settings?tab=email");
    await user.click(await screen.findByRole("button", { name: "Pause" }));
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(([input, init]) => init?.method === "POST" && String(input).endsWith("/pause")),
      ).toBe(true),
    );
  });

  it("says why Cove paused it", async () => {
    signedIn([mailbox({ status: "paused", last_error: "The mail server refused the user name or password." })]);
    renderApp("/settings?tab=email");
    expect(await screen.findByText("The mail server refused the user name or password.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Resume" })).toBeInTheDocument();
  });

  it("connects a mailbox, and shows the server's reason once, on the field, when it cannot", async () => {
    const message = "The mail server refused the user name or password.";
    let sent: Record<string, unknown> | null = null;
    signedIn([], (body) => {
      sent = body;
      return json(422, { error: message, code: "MAILBOX_CONNECTION_FAILED", details: [{ path: "password", message }] });
    });
    const { user } = renderApp("/settings?tab=email");
    await user.click(await screen.findByRole("button", { name: "Connect a mailbox" }));
    const form = screen.getByRole("form", { name: "Connect a mailbox" });
    await user.type(within(form).getByLabelText("Server"), "imap.example.com");
    await user.type(within(form).getByLabelText("User name"), "support@example.com");
    await user.type(within(form).getByLabelText("Password"), "wrong");
    await user.click(within(form).getByRole("button", { name: "Connect and import" }));

    expect(await within(form).findByText(message)).toBeInTheDocument();
    expect(within(form).getByLabelText("Password")).toHaveAttribute("aria-invalid", "true");
    expect(within(form).getByLabelText("Password")).toHaveAccessibleDescription(expect.stringContaining(message));
    expect(screen.getAllByText(message)).toHaveLength(1);
    expect(within(form).queryByRole("alert")).not.toBeInTheDocument();
    expect(sent).toEqual({
      host: "imap.example.com",
      port: 993,
      tls: true,
      user: "support@example.com",
      password: "wrong",
      folder: "INBOX",
    });
  });

  it("says a failure that is about no field once, above the form", async () => {
    const message = "The mail server at imap.example.com did not answer on port 993.";
    signedIn([], () => json(422, { error: message, code: "MAILBOX_CONNECTION_FAILED" }));
    const { user } = renderApp("/settings?tab=email");
    await user.click(await screen.findByRole("button", { name: "Connect a mailbox" }));
    const form = screen.getByRole("form", { name: "Connect a mailbox" });
    await user.type(within(form).getByLabelText("Server"), "imap.example.com");
    await user.type(within(form).getByLabelText("User name"), "support@example.com");
    await user.type(within(form).getByLabelText("Password"), "secret");
    await user.click(within(form).getByRole("button", { name: "Connect and import" }));
    expect(await within(form).findByRole("alert")).toHaveTextContent(message);
    expect(screen.getAllByText(message)).toHaveLength(1);
  });

  it("words the time left as people say it", () => {
    expect(timeLeft(30)).toBe("Less than a minute left");
    expect(timeLeft(61)).toBe("About 1 minute left");
    expect(timeLeft(3 * 3600 + 20 * 60)).toBe("About 3 hours 20 min left");
  });
});
