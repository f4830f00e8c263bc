import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { createQueryClient } from "../../../lib/query-provider.tsx";
import { calls, json, mockApi, storeSession } from "../../../test/render-app.tsx";
import { NotificationBell } from "./notification-bell.tsx";

const TICKET = "5c0d1f3a-8b2e-4c7d-9e1f-2a3b4c5d6e7f";
const notification = (id: string, read: boolean, type = "assigned") => ({
  id,
  type,
  actor_name: "Priya Shah",
  title: "#42 Refund for a broken lamp",
  excerpt: type === "reply" ? "I have sent the label" : "",
  link: `/tickets/${TICKET}`,
  ticket_id: TICKET,
  read,
  created_at: new Date().toISOString(),
});

function renderBell() {
  storeSession();
  const router = createMemoryRouter(
    [
      {
        path: "/",
        element: (
          <>
            <NotificationBell />
            <p>elsewhere</p>
          </>
        ),
      },
      { path: "/tickets/:id", element: <p>Ticket page</p> },
    ],
    { initialEntries: ["/"] },
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, user: userEvent.setup() };
}

describe("NotificationBell", () => {
  it("shows an empty panel, opened by click and closed with Escape or a click elsewhere", async () => {
    mockApi({ "GET /api/notifications": () => json(200, { notifications: [], unread_count: 0 }) });
    const { user } = renderBell();
    const bell = screen.getByRole("button", { name: "Notifications" });
    expect(bell).toHaveAttribute("aria-expanded", "false");
    await user.click(bell);
    expect(await screen.findByText("No notifications yet")).toBeVisible();
    await user.keyboard("{Escape}");
    expect(screen.queryByText("No notifications yet")).toBeNull();
    await user.click(bell);
    await user.click(screen.getByText("elsewhere"));
    expect(screen.queryByText("No notifications yet")).toBeNull();
  });

  it("counts the unread ones, opens one (marking it read) and marks all read", async () => {
    let unread = 2;
    const fetchMock = mockApi({
      "GET /api/notifications": () =>
        json(200, {
          notifications: [
            notification("a1b2c3d4-0000-4000-8000-000000000001", unread < 1, "reply"),
            notification("a1b2c3d4-0000-4000-8000-000000000002", unread < 2),
          ],
          unread_count: unread,
        }),
      "POST /api/notifications/a1b2c3d4-0000-4000-8000-000000000001/read": () => {
        unread = 1;
        return json(200, { unread_count: 1 });
      },
      "POST /api/notifications/read-all": () => {
        unread = 0;
        return json(200, { unread_count: 0 });
      },
    });
    const { router, user } = renderBell();
    const bell = await screen.findByRole("button", { name: "Notifications, 2 unread" });
    await user.click(bell);
    const panel = screen.getByRole("region", { name: "Notifications" });
    expect(within(panel).getByText("replied on")).toBeInTheDocument();
    expect(within(panel).getByText("I have sent the label")).toBeInTheDocument();
    await user.click(within(panel).getAllByRole("link")[0]!);
    expect(router.state.location.pathname).toBe(`/tickets/${TICKET}`);
    await waitFor(() =>
      expect(calls(fetchMock)).toContain("POST /api/notifications/a1b2c3d4-0000-4000-8000-000000000001/read"),
    );
    await router.navigate("/");
    await user.click(await screen.findByRole("button", { name: "Notifications, 1 unread" }));
    await user.click(screen.getByRole("button", { name: "Mark all read" }));
    expect(await screen.findByRole("button", { name: "Notifications" })).toBeInTheDocument();
  });
});
