import { cleanup, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { calls, json, mockApi, renderApp } from "../../../test/render-app.tsx";

const INVALID = "This password reset link is invalid or has expired. Please request a new one.";

describe("reset password", () => {
  it("says at once, before any form, that a used or expired link is invalid, and does not spend it", async () => {
    const fetchMock = mockApi({
      "POST /api/auth/reset-password/check": () => json(400, { error: INVALID, code: "INVALID_TOKEN" }),
    });
    renderApp("/reset-password?token=used-token");
    expect(await screen.findByRole("alert")).toHaveTextContent(INVALID);
    expect(screen.getByRole("link", { name: "Request a new reset link" })).toHaveAttribute("href", "/login?forgot=1");
    expect(screen.queryByLabelText("New password")).not.toBeInTheDocument();
    expect(calls(fetchMock)).toEqual(["POST /api/auth/reset-password/check"]);
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({ token: "used-token" });
  });

  it("shows the form when the link is still valid, and when the check gets no answer", async () => {
    mockApi({ "POST /api/auth/reset-password/check": () => json(200, { message: "valid" }) });
    renderApp("/reset-password?token=fresh-token");
    expect(await screen.findByLabelText("New password")).toBeInTheDocument();
    cleanup();
    mockApi({ "POST /api/auth/reset-password/check": () => json(502, "Bad gateway") });
    renderApp("/reset-password?token=fresh-token");
    expect(await screen.findByLabelText("New password")).toBeInTheDocument();
  });

  it("explains a link that expired while the form was open, and offers a new one", async () => {
    const fetchMock = mockApi({
      "POST /api/auth/reset-password/check": () => json(200, { message: "valid" }),
      "POST /api/auth/reset-password": () =>
        json(400, { error: "This reset link is invalid or has expired", code: "INVALID_TOKEN" }),
    });
    const { user } = renderApp("/reset-password?token=old-token");

    await user.type(await screen.findByLabelText("New password"), "a brand new password");
    await user.type(screen.getByLabelText("Confirm new password"), "a brand new password");
    await user.click(screen.getByRole("button", { name: "Set new password" }));

    expect(await screen.findByRole("alert")).toHaveTextContent("This reset link is invalid or has expired");
    expect(screen.getByRole("link", { name: "Request a new reset link" })).toHaveAttribute("href", "/login?forgot=1");
    // A used link cannot succeed: the form it would fail again with is gone.
    expect(screen.queryByLabelText("New password")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Set new password" })).not.toBeInTheDocument();
    const body: unknown = JSON.parse(String(fetchMock.mock.calls[1]?.[1]?.body));
    expect(body).toEqual({ token: "old-token", password: "a brand new password" });
  });

  it("goes to sign-in with the server's message once the password is changed", async () => {
    mockApi({
      "POST /api/auth/reset-password/check": () => json(200, { message: "valid" }),
      "POST /api/auth/reset-password": () => json(200, { message: "Your password has been reset" }),
    });
    const { user, router } = renderApp("/reset-password?token=fresh-token");

    await user.type(await screen.findByLabelText("New password"), "a brand new password");
    await user.type(screen.getByLabelText("Confirm new password"), "a brand new password");
    await user.click(screen.getByRole("button", { name: "Set new password" }));

    expect(await screen.findByRole("heading", { name: "Sign in to Cove" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/login");
    expect(await screen.findByText("Your password has been reset")).toBeInTheDocument();
  });
});
