import type { AuditEntry } from "@cove/contract/audit.ts";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { calls, json, mockApi, renderApp, storeSession, testUser } from "../../../test/render-app.tsx";

const entry = (id: number, overrides: Partial<AuditEntry> = {}): AuditEntry => ({
  id: String(id),
  created_at: "2026-11-29T08:00:00.000Z",
  actor: { type: "member", id: testUser.id, name: "Ada Lovelace" },
  action: "member.role_changed",
  object: { type: "member", id: "u1", label: "Grace Hopper <grace@example.com>" },
  address: "203.0.113.7",
  details: { from: "agent", to: "admin" },
  ...overrides,
});

function signedIn(handlers: Parameters<typeof mockApi>[0] = {}) {
  storeSession();
  return mockApi({
    "GET /api/auth/me": () => json(200, { user: testUser }),
    "GET /api/audit-log/actors": () =>
      json(200, {
        actors: [
          { type: "member", id: testUser.id, name: "Ada Lovelace" },
          { type: "system", id: "data-export", name: "data-export" },
        ],
      }),
    ...handlers,
  });
}

describe("Settings > Audit log", () => {
  it("shows who did what in plain words, loads more, filters by action, and verifies the chain", async () => {
    const fetchMock = signedIn({
      "GET /api/audit-log": (() => {
        let n = 0;
        return () => {
          n += 1;
          if (n === 1) return json(200, { entries: [entry(5)], next_cursor: "5" });
          if (n === 2) {
            const exported = entry(3, { action: "export.started", object: { type: "export", id: "e1", label: null } });
            return json(200, {
              entries: [entry(4, { action: "auth.sign_in", object: null }), exported],
              next_cursor: null,
            });
          }
          return json(200, { entries: [], next_cursor: null });
        };
      })(),
      "GET /api/audit-log/verify": () =>
        json(200, { intact: false, checked: 3, brokenAt: "4", reason: "This entry was changed after it was written." }),
    });
    const { user } = renderApp("/settings?tab=audit");
    const table = await screen.findByRole("table");
    expect(within(table).getByText("Changed a member's role")).toBeInTheDocument();
    expect(within(table).getByText("Grace Hopper <grace@example.com>")).toBeInTheDocument();
    expect(within(table).getByText("203.0.113.7")).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Load more" }));
    expect(await within(table).findByText("Signed in")).toBeInTheDocument();
    // An object with no label of its own is named by its kind, not by an id.
    expect(within(table).getByText("Data export")).toBeInTheDocument();
    expect(within(table).queryByText("e1")).not.toBeInTheDocument();
    expect(calls(fetchMock)).toContain("GET /api/audit-log?cursor=5");
    expect(screen.queryByRole("button", { name: "Load more" })).not.toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText("Action"), "api_key.created");
    expect(await screen.findByText("No entries match these filters.")).toBeInTheDocument();
    expect(calls(fetchMock)).toContain("GET /api/audit-log?action=api_key.created");

    await user.click(screen.getByRole("button", { name: "Verify integrity" }));
    expect(
      await screen.findByText(
        "The audit log was altered: entry #4 does not match. This entry was changed after it was written.",
      ),
    ).toBeInTheDocument();
  });

  it("says when the chain is intact, and an error loading the log with Try again", async () => {
    signedIn({
      "GET /api/audit-log": () => json(500, { error: "Something went wrong on our side.", code: "INTERNAL_ERROR" }),
      "GET /api/audit-log/verify": () => json(200, { intact: true, checked: 12 }),
    });
    const { user } = renderApp("/settings?tab=audit");
    expect(await screen.findByText("Error loading the audit log")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Try again" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Verify integrity" }));
    expect(await screen.findByText("The audit log is intact: 12 entries checked.")).toBeInTheDocument();
  });
});
