import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { calls, json, renderApp, signedIn, testUser } from "../../test/render-app.tsx";

/** The main navigation's sections, in order, as an admin sees them. */
const SECTIONS = [
  "Dashboard",
  "Reports",
  "Tickets",
  "Live Chat",
  "AI Assistant",
  "Knowledge Base",
  "Automation",
  "Users",
  "Billing",
  "Settings",
];

describe("app layout", () => {
  it("lists the ten sections in order and marks the current one", async () => {
    signedIn();
    renderApp("/knowledge-base/42/edit");

    // A nested address of the section (here an article id that cannot exist) still marks the section.
    expect(await screen.findByRole("heading", { name: "Article not found" })).toBeInTheDocument();
    const nav = screen.getAllByRole("navigation", { name: "Main" })[0]!;
    const links = within(nav).getAllByRole("link");
    expect(links.map((l) => l.textContent)).toEqual(SECTIONS);
    expect(within(nav).getByRole("link", { name: "Knowledge Base" })).toHaveAttribute("aria-current", "page");
    expect(screen.getByText("Ada Lovelace")).toBeInTheDocument();
    expect(screen.getByText("Analytical Engines")).toBeInTheDocument();
  });

  it("signs out to /login even when the logout call fails", async () => {
    const fetchMock = signedIn({
      "POST /api/auth/logout": () => Promise.reject(new TypeError("Failed to fetch")),
    });
    const { user, router } = renderApp("/dashboard");

    await user.click(await screen.findByRole("button", { name: "Sign out" }));

    expect(await screen.findByRole("heading", { name: "Sign in to Cove" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/login");
    expect(localStorage.length).toBe(0);
    expect(calls(fetchMock)).toContain("POST /api/auth/logout");
  });

  it("opens the profile page from the name in the top bar, and the top bar follows a change at once", async () => {
    signedIn({
      "PUT /api/auth/profile": (init) => json(200, { user: { ...testUser, ...JSON.parse(String(init?.body)) } }),
    });
    const { user, router } = renderApp("/dashboard");

    await user.click(await screen.findByRole("link", { name: /Ada Lovelace/ }));
    expect(await screen.findByRole("heading", { name: "Your profile" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/profile");
    const names = screen.getByRole("form", { name: "Your name" });
    const firstName = within(names).getByLabelText("First name");
    await user.clear(firstName);
    await user.type(firstName, "Augusta");
    await user.click(within(names).getByRole("button", { name: "Save changes" }));

    expect(await screen.findByText("Profile updated")).toBeInTheDocument();
    expect(within(screen.getAllByRole("banner")[0]!).getByText("Augusta Lovelace")).toBeInTheDocument();
    expect(localStorage.getItem("cove.session")).toContain("Augusta");
  });

  it("shows an agent no billing or settings, automation read-only, and explains if they open an admin page", async () => {
    const agent = { ...testUser, role: "agent" as const };
    signedIn({}, agent);
    renderApp("/billing");

    expect(await screen.findByRole("heading", { name: "Only an admin can open this page" })).toBeInTheDocument();
    const nav = screen.getAllByRole("navigation", { name: "Main" })[0]!;
    expect(
      within(nav)
        .getAllByRole("link")
        .map((l) => l.textContent),
    ).toEqual(SECTIONS.filter((s) => s !== "Billing" && s !== "Settings"));
  });
});
