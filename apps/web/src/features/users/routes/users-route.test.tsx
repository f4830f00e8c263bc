import type { UserListItem } from "@cove/contract/users.ts";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import {
  calls,
  columnHeaders,
  findOpenDialog,
  json,
  renderApp,
  signedIn,
  testUser,
} from "../../../test/render-app.tsx";

const grace: UserListItem = {
  id: "5d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  first_name: "Grace",
  last_name: "Hopper",
  email: "grace@example.com",
  role: "agent",
  status: "active",
  last_login_at: "2030-01-10T09:30:00.000Z",
  avatar_url: null,
};
const alan: UserListItem = {
  ...grace,
  id: "6e2d3c4b-5f6a-4b7c-9d8e-0f1a2b3c4d5e",
  first_name: "Alan",
  last_name: "Turing",
  email: "alan@example.com",
  status: "invited",
  last_login_at: null,
};
const me: UserListItem = {
  ...grace,
  id: testUser.id,
  first_name: testUser.firstName,
  last_name: testUser.lastName,
  email: testUser.email,
  role: "admin",
};
const seats = { plan: "growth", plan_name: "Growth", used: 3, limit: 10 };

function api(overrides: Parameters<typeof signedIn>[0] = {}, user = testUser) {
  return signedIn({ "GET /api/users": () => json(200, { users: [me, grace, alan], seats }), ...overrides }, user);
}

/** Opens the invite form on /users, fills it in and sends it; returns the form. */
async function sendInvitation(email: string, firstName: string, lastName: string) {
  const { user } = renderApp("/users");
  await user.click(await screen.findByRole("button", { name: "Invite User" }));
  const form = screen.getByRole("form", { name: "Invite a team member" });
  await user.type(within(form).getByLabelText("Email"), email);
  await user.type(within(form).getByLabelText("First name"), firstName);
  await user.type(within(form).getByLabelText("Last name"), lastName);
  await user.click(within(form).getByRole("button", { name: "Send invitation" }));
  return form;
}

describe("team members, as an admin", () => {
  it("shows the table, the cards and Never for someone who has not signed in", async () => {
    api();
    renderApp("/users");
    const table = await screen.findByRole("table");
    expect(columnHeaders(table)).toEqual(["User", "Role", "Status", "Last Login", "Actions"]);
    const alanRow = within(table).getByRole("row", { name: "Alan Turing" });
    const cells = within(alanRow).getAllByRole("cell");
    expect(cells[2]).toHaveTextContent(/^Invited$/);
    expect(cells[3]).toHaveTextContent(/^Never$/);
    expect(within(alanRow).getByRole("button", { name: "Resend invitation to Alan Turing" })).toBeInTheDocument();
    const cards = screen.getByText("Total").closest("dl") as HTMLElement;
    expect(within(cards).getByText("Total").nextSibling?.textContent).toBe("3");
    expect(within(cards).getByText("Active").nextSibling?.textContent).toBe("2");
    expect(within(cards).getByText("Admins").nextSibling?.textContent).toBe("1");
    expect(screen.getByText("3 of 10 seats in use on the Growth plan, counting invitations.")).toBeInTheDocument();
    // Nobody deactivates themselves.
    const myRow = within(table).getByRole("row", { name: "Ada Lovelace" });
    expect(within(myRow).queryByRole("button", { name: /Deactivate/ })).not.toBeInTheDocument();
  });

  it("asks for the required fields, then invites and says so", async () => {
    const fetchMock = api({
      "POST /api/users/invite": (init) => {
        const body = JSON.parse(String(init?.body));
        return json(201, { user: { ...alan, id: "7f3e4d5c-6a7b-4c8d-9e0f-1a2b3c4d5e6f", email: body.email } });
      },
    });
    const { user } = renderApp("/users");
    await user.click(await screen.findByRole("button", { name: "Invite User" }));
    const form = screen.getByRole("form", { name: "Invite a team member" });
    await user.type(within(form).getByLabelText("Email"), "kj@example.com");
    await user.click(within(form).getByRole("button", { name: "Send invitation" }));
    expect(await screen.findByText("Please fill in all required fields")).toBeInTheDocument();
    expect(calls(fetchMock)).not.toContain("POST /api/users/invite");

    expect(within(form).getByLabelText("Role")).toHaveValue("agent");
    await user.type(within(form).getByLabelText("First name"), "Katherine");
    await user.type(within(form).getByLabelText("Last name"), "Johnson");
    await user.click(within(form).getByRole("button", { name: "Send invitation" }));
    expect(await screen.findByText("User invited successfully!")).toBeInTheDocument();
    const sent = fetchMock.mock.calls.find(([, init]) => init?.method === "POST");
    expect(JSON.parse(String(sent?.[1]?.body))).toEqual({
      email: "kj@example.com",
      firstName: "Katherine",
      lastName: "Johnson",
      role: "agent",
    });
  });

  it("shows the server's reason when an invitation fails", async () => {
    api({
      "POST /api/users/invite": () =>
        json(409, { error: "An account with this email already exists", code: "EMAIL_TAKEN" }),
    });
    await sendInvitation("grace@example.com", "Grace", "Hopper");
    expect(
      await screen.findByText("Failed to invite user: An account with this email already exists"),
    ).toBeInTheDocument();
  });

  it("says at once that an address with an account in another organization cannot be invited", async () => {
    const elsewhere =
      "This email address already has a Cove account in another organization, and an address can belong to one team only. Invite another email address of theirs.";
    api({ "POST /api/users/invite": () => json(409, { error: elsewhere, code: "EMAIL_TAKEN" }) });
    const form = await sendInvitation("kim@elsewhere.example", "Kim", "Lee");
    expect(await screen.findByText(`Failed to invite user: ${elsewhere}`)).toBeInTheDocument();
    // Beside the address, too, and the form keeps what was typed so another address can be tried.
    expect(within(form).getByLabelText("Email")).toHaveAccessibleDescription(elsewhere);
    expect(within(form).getByLabelText("First name")).toHaveValue("Kim");
    expect(screen.queryByRole("row", { name: "Kim Lee" })).not.toBeInTheDocument();
  });

  it("changes a role only after the confirmation, and deactivates after its own", async () => {
    const fetchMock = api({
      "PUT /api/users/5d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d": (init) =>
        json(200, { user: { ...grace, ...JSON.parse(String(init?.body)) } }),
    });
    const { user } = renderApp("/users");
    const row = await screen.findByRole("row", { name: "Grace Hopper" });
    await user.selectOptions(within(row).getByLabelText("Role of Grace Hopper"), "admin");
    const dialog = await findOpenDialog("alertdialog", {
      name: "Are you sure you want to change this user's role to Admin?",
    });
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(calls(fetchMock).filter((c) => c.startsWith("PUT"))).toEqual([]);

    await user.selectOptions(within(row).getByLabelText("Role of Grace Hopper"), "admin");
    await user.click(within(await findOpenDialog("alertdialog")).getByRole("button", { name: "Change role" }));
    expect(await screen.findByText("User updated successfully!")).toBeInTheDocument();

    await user.click(within(row).getByRole("button", { name: "Deactivate Grace Hopper" }));
    const confirm = await findOpenDialog("alertdialog", { name: "Are you sure you want to deactivate this user?" });
    await user.click(within(confirm).getByRole("button", { name: "Deactivate" }));
    expect(await screen.findByText("User deactivated successfully!")).toBeInTheDocument();
    const bodies = fetchMock.mock.calls.filter(([, init]) => init?.method === "PUT").map(([, i]) => String(i?.body));
    expect(bodies).toEqual(['{"role":"admin"}', '{"status":"inactive"}']);
  });

  it("says Failed to deactivate user when the server refuses", async () => {
    api({
      "PUT /api/users/5d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d": () =>
        json(409, { error: "Your organization must keep at least one active admin.", code: "CONFLICT" }),
    });
    const { user } = renderApp("/users");
    const row = await screen.findByRole("row", { name: "Grace Hopper" });
    await user.click(within(row).getByRole("button", { name: "Deactivate Grace Hopper" }));
    await user.click(within(await findOpenDialog("alertdialog")).getByRole("button", { name: "Deactivate" }));
    expect(await screen.findByText("Failed to deactivate user")).toBeInTheDocument();
  });

  it("resets a member's two-factor sign-in and signs them out everywhere, each after a confirmation", async () => {
    const fetchMock = api({
      "POST /api/users/5d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d/2fa/reset": () =>
        json(200, { message: "Two-factor sign-in was reset. We emailed the member to let them know." }),
      "DELETE /api/users/5d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d/sessions": () =>
        json(409, { error: "Something is off.", code: "CONFLICT" }),
    });
    const { user } = renderApp("/users");
    const row = await screen.findByRole("row", { name: "Grace Hopper" });
    // Not offered on one's own row (the profile has one's own sessions) nor to an invitation.
    const mine = screen.getByRole("row", { name: "Ada Lovelace" });
    expect(within(mine).queryByRole("button", { name: /Reset two-factor/ })).toBeNull();

    await user.click(within(row).getByRole("button", { name: "Reset 2FA: Grace Hopper" }));
    const reset = await findOpenDialog("alertdialog", { name: "Reset two-factor sign-in?" });
    await user.click(within(reset).getByRole("button", { name: "Reset" }));
    expect(
      await screen.findByText("Two-factor sign-in was reset. We emailed the member to let them know."),
    ).toBeInTheDocument();

    await user.click(within(row).getByRole("button", { name: "Sign out everywhere: Grace Hopper" }));
    const signOut = await findOpenDialog("alertdialog", { name: "Sign this member out everywhere?" });
    await user.click(within(signOut).getByRole("button", { name: "Sign out" }));
    expect(await screen.findByText("Failed to sign out")).toBeInTheDocument();
    expect(calls(fetchMock).filter((c) => c.startsWith("POST") || c.startsWith("DELETE"))).toEqual([
      "POST /api/users/5d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d/2fa/reset",
      "DELETE /api/users/5d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d/sessions",
    ]);
  });

  it("says Error loading users with the message", async () => {
    api({ "GET /api/users": () => json(500, { error: "Database unavailable", code: "INTERNAL_ERROR" }) });
    renderApp("/users");
    expect(await screen.findByText("Error loading users")).toBeInTheDocument();
    expect(screen.getByText("Database unavailable")).toBeInTheDocument();
  });
});

describe("team members, as an agent", () => {
  it("is read-only: no invite form, no role or status actions", async () => {
    const agent = { ...testUser, role: "agent" as const };
    api({}, agent);
    renderApp("/users");
    const table = await screen.findByRole("table");
    expect(columnHeaders(table)).toEqual(["User", "Role", "Status", "Last Login"]);
    expect(screen.queryByRole("button", { name: "Invite User" })).not.toBeInTheDocument();
    expect(within(table).queryAllByRole("combobox")).toHaveLength(0);
    expect(within(table).queryAllByRole("button")).toHaveLength(0);
  });
});

describe("the Admins card", () => {
  it("counts admins who have joined, not invited ones", async () => {
    api({ "GET /api/users": () => json(200, { users: [me, grace, { ...alan, role: "admin" }], seats }) });
    renderApp("/users");
    await screen.findByRole("table");
    const cards = screen.getByText("Total").closest("dl") as HTMLElement;
    expect(within(cards).getByText("Admins").nextSibling?.textContent).toBe("1");
  });
});
