import { screen, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { json, mockApi, renderApp } from "../../../test/render-app.tsx";
import { listOf, organization, session } from "../test/portal-fixtures.ts";

/** The CSS variables the portal's frame sets from the organization's colour (what its header and buttons use). */
function brandVariables(inside: HTMLElement) {
  const frame = inside.closest<HTMLElement>("[style]");
  if (!frame) throw new Error("no branded frame");
  const read = (name: string) => frame.style.getPropertyValue(name);
  return { accent: read("--portal-accent"), ink: read("--portal-accent-ink"), text: read("--portal-accent-text") };
}

const branded = {
  ...organization,
  branding: { logo_url: "/api/public/acme/logo?v=0123456789ab", color: "#0f766e" },
};

describe("the portal wears the organization's branding", () => {
  beforeEach(() => vi.stubGlobal("scrollTo", vi.fn()));

  it("shows the saved logo and colour on the sign-in page, with white text on a dark colour", async () => {
    mockApi({ "GET /api/public/acme/portal": () => json(200, { organization: branded }) });
    renderApp("/portal/acme");
    await screen.findByRole("heading", { name: "Sign in to Acme Outdoor Co. support" });
    const header = screen.getByTestId("portal-header");
    expect(header.querySelector("img")).toHaveAttribute("src", "/api/public/acme/logo?v=0123456789ab");
    expect(brandVariables(header)).toEqual({ accent: "#0f766e", ink: "#ffffff", text: "#0f766e" });
  });

  it("writes black on a light colour and keeps links readable on white", async () => {
    mockApi({
      "GET /api/public/acme/portal": () =>
        json(200, { organization: { ...organization, branding: { logo_url: null, color: "#fde047" } } }),
    });
    renderApp("/portal/acme");
    await screen.findByRole("heading", { name: "Sign in to Acme Outdoor Co. support" });
    const colours = brandVariables(screen.getByTestId("portal-header"));
    expect(colours.accent).toBe("#fde047");
    expect(colours.ink).toBe("#000000");
    expect(colours.text).not.toBe("#fde047");
  });

  it("takes nothing but a plain #rrggbb into its styles", async () => {
    mockApi({
      "GET /api/public/acme/portal": () =>
        json(200, {
          organization: { ...organization, branding: { logo_url: null, color: "red;background:url(//evil)" } },
        }),
    });
    renderApp("/portal/acme");
    await screen.findByRole("heading", { name: "Sign in to Acme Outdoor Co. support" });
    expect(brandVariables(screen.getByTestId("portal-header")).accent).toBe("#4f46e5");
  });

  it("follows a logo and colour saved after the customer signed in (their /portal/me)", async () => {
    localStorage.setItem("cove.portal.acme", JSON.stringify(session));
    mockApi({
      "GET /api/portal/me": () => json(200, { customer: session.customer, organization: branded }),
      "GET /api/portal/tickets": () => json(200, listOf([])),
    });
    renderApp("/portal/acme");
    await screen.findByRole("heading", { name: "Hello, Sam Rivera" });
    // The session still holds the colours it started with; /portal/me's answer replaces them.
    await waitFor(() =>
      expect(screen.getByTestId("portal-header").querySelector("img")).toHaveAttribute(
        "src",
        branded.branding.logo_url,
      ),
    );
    expect(brandVariables(screen.getByTestId("portal-header")).accent).toBe("#0f766e");
  });
});
