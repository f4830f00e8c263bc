import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { json, mockApi, renderApp, testUser, trialAnswer } from "../../../test/render-app.tsx";

const details = {
  organization_name: "Analytical Engines",
  email: "ada@example.com",
  first_name: "Ada",
  last_name: "Lovelace",
  role: "agent",
  expires_at: "2030-01-15T00:00:00.000Z",
};

describe("accepting an invitation", () => {
  it("shows the organization, sets a password, and lands on the dashboard signed in", async () => {
    const fetchMock = mockApi({
      "POST /api/auth/invite-details": () => json(200, details),
      "POST /api/auth/accept-invite": () => json(200, { token: "new-token", user: { ...testUser, role: "agent" } }),
      "GET /api/auth/me": () => json(200, { user: { ...testUser, role: "agent" } }),
      "GET /api/trial/status": () => json(200, trialAnswer),
    });
    const { user, router } = renderApp("/accept-invite?token=abc123");
    expect(await screen.findByRole("heading", { name: "Join Analytical Engines on Cove" })).toBeInTheDocument();
    expect(screen.getByLabelText("First name")).toHaveValue("Ada");
    await user.type(screen.getByLabelText("Password", { exact: true }), "a long password");
    await user.type(screen.getByLabelText("Confirm password", { exact: true }), "a long passwort");
    await user.click(screen.getByRole("button", { name: "Join the team" }));
    expect(await screen.findByText("Passwords do not match")).toBeInTheDocument();

    await user.clear(screen.getByLabelText("Confirm password", { exact: true }));
    await user.type(screen.getByLabelText("Confirm password", { exact: true }), "a long password");
    await user.click(screen.getByRole("button", { name: "Join the team" }));
    await screen.findByText("Welcome to Analytical Engines!");
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
    const sent = fetchMock.mock.calls.find(([input]) => String(input).endsWith("/accept-invite"));
    expect(JSON.parse(String(sent?.[1]?.body))).toEqual({
      token: "abc123",
      firstName: "Ada",
      lastName: "Lovelace",
      password: "a long password",
    });
    expect(localStorage.getItem("cove.session")).toContain("new-token");
  });

  it("says clearly when the link has expired or was already used", async () => {
    mockApi({
      "POST /api/auth/invite-details": () =>
        json(410, {
          error: "This invitation has expired. Ask your administrator to send you a new one.",
          code: "INVITATION_EXPIRED",
        }),
    });
    renderApp("/accept-invite?token=old");
    expect(await screen.findByText(/This invitation has expired/)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Join the team" })).not.toBeInTheDocument();
  });
});
