import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { json, renderApp, signedIn } from "../../../test/render-app.tsx";

describe("the profile", () => {
  it("says Profile update failed (the spec's text) with the server's reason beneath it, once", async () => {
    const reason = "Your organization is read-only until its subscription is paid.";
    signedIn({
      "PUT /api/auth/profile": () => json(403, { error: reason, code: "FORBIDDEN" }),
    });
    const { user } = renderApp("/profile");
    const form = await screen.findByRole("form", { name: "Your name" });
    await user.type(within(form).getByLabelText("First name"), "n");
    await user.click(within(form).getByRole("button", { name: "Save changes" }));
    const title = await screen.findByText("Profile update failed");
    const toast = title.closest("[data-sonner-toast]") as HTMLElement;
    expect(within(toast).getByText(reason)).toBeInTheDocument();
    expect(screen.getAllByText(reason)).toHaveLength(1);
  });
});

describe("toasts", () => {
  it("sit below the 64 px top bar, on a desktop and on a phone, never over it", async () => {
    signedIn({
      "PUT /api/auth/profile": () => json(403, { error: "Read-only", code: "FORBIDDEN" }),
    });
    const { user } = renderApp("/profile");
    const form = await screen.findByRole("form", { name: "Your name" });
    await user.type(within(form).getByLabelText("First name"), "n");
    await user.click(within(form).getByRole("button", { name: "Save changes" }));
    const toast = (await screen.findByText("Profile update failed")).closest("[data-sonner-toast]") as HTMLElement;
    const toaster = toast.closest("[data-sonner-toaster]") as HTMLElement;
    expect(document.querySelector("header.sticky")).toHaveClass("h-16");
    expect(Number.parseInt(toaster.style.getPropertyValue("--offset-top"), 10)).toBeGreaterThanOrEqual(64 + 16);
    // On a phone: 80 px at the least, lower while a row of actions at the top of the page is in view.
    expect(toaster.style.getPropertyValue("--mobile-offset-top")).toBe(
      "max(80px, calc(var(--toasts-below, 0px) + 16px))",
    );
  });
});
