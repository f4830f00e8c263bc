import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { NotificationBell } from "./notification-bell.tsx";

describe("NotificationBell", () => {
  it("opens its panel on click and closes it with Escape or a click elsewhere", async () => {
    const user = userEvent.setup();
    render(
      <div>
        <NotificationBell />
        <p>elsewhere</p>
      </div>,
    );
    const bell = screen.getByRole("button", { name: "Notifications" });
    expect(bell).toHaveAttribute("aria-expanded", "false");
    await user.click(bell);
    expect(screen.getByText("No notifications yet")).toBeVisible();
    expect(bell).toHaveAttribute("aria-expanded", "true");
    await user.keyboard("{Escape}");
    expect(screen.queryByText("No notifications yet")).toBeNull();
    await user.click(bell);
    await user.click(screen.getByText("elsewhere"));
    expect(screen.queryByText("No notifications yet")).toBeNull();
  });
});
