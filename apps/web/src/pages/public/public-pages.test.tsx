import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { logApiFailure } from "../../lib/debug-log.ts";
import { mockApi, renderApp } from "../../test/render-app.tsx";

describe("public pages inside the app", () => {
  it("sends each plan's Start Free Trial to registration with the plan", async () => {
    mockApi({});
    const { user, router } = renderApp("/");

    // The first render of the landing page transforms its modules: give it longer than the default wait.
    const pricing = await screen.findByRole(
      "heading",
      { name: "Simple plans that grow with your team" },
      { timeout: 10_000 },
    );
    const section = pricing.closest("section");
    if (!section) throw new Error("pricing section missing");
    const buttons = within(section).getAllByRole("link", { name: "Start Free Trial" });
    expect(buttons.map((b) => b.getAttribute("href"))).toEqual([
      "/register?plan=starter",
      "/register?plan=growth",
      "/register?plan=business",
    ]);
    expect(within(section).getAllByText("/month per agent")).toHaveLength(3);

    await user.click(buttons[2] as HTMLElement);
    expect(await screen.findByText(/You picked the/)).toHaveTextContent("You picked the Business plan ($99/month)");
    expect(router.state.location.pathname + router.state.location.search).toBe("/register?plan=business");
  }, 30_000);

  it("sets the page title and a single description per page", async () => {
    mockApi({});
    const { user } = renderApp("/about");
    await screen.findByRole("heading", { level: 1, name: /between everything else/ });
    expect(document.title).toBe("About · Cove");
    const descriptions = document.head.querySelectorAll('meta[name="description"]');
    expect(descriptions).toHaveLength(1);
    expect(descriptions[0]?.getAttribute("content")).toMatch(/teams of 1 to 15/);

    await user.click(screen.getAllByRole("link", { name: "Terms of Service" })[0] as HTMLElement);
    await screen.findByRole("heading", { level: 1, name: "Terms of Service" });
    expect(document.title).toBe("Terms of Service · Cove");
    expect(document.head.querySelector('meta[name="description"]')?.getAttribute("content")).toMatch(/^The terms/);
  });

  it("shows the debug log and clears it", async () => {
    mockApi({});
    logApiFailure({ method: "GET", path: "/tickets?status=open", status: 503, code: "UNAVAILABLE", message: "Down" });
    const { user } = renderApp("/debug");

    const entries = within(await screen.findByRole("region", { name: "Log entries" })).getAllByRole("listitem");
    expect(entries).toHaveLength(1);
    expect(entries[0]).toHaveTextContent("503 GET /api/tickets");
    expect(entries[0]).toHaveTextContent("Down");

    await user.click(screen.getByRole("button", { name: "Clear log" }));
    expect(screen.getByText("Nothing logged in this tab")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Clear log" })).toBeDisabled();
  });
});
