import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { json, mockApi, renderApp } from "../../../test/render-app.tsx";

describe("reset password", () => {
  it("explains an expired link and offers a new one", async () => {
    const fetchMock = mockApi({
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
    const body: unknown = JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body));
    expect(body).toEqual({ token: "old-token", password: "a brand new password" });
  });

  it("goes to sign-in with the server's message once the password is changed", async () => {
    mockApi({ "POST /api/auth/reset-password": () => json(200, { message: "Your password has been reset" }) });
    const { user, router } = renderApp("/reset-password?token=fresh-token");

    await user.type(await screen.findByLabelText("New password"), "a brand new password");
    await user.type(screen.getByLabelText("Confirm new password"), "a brand new password");
    await user.click(screen.getByRole("button", { name: "Set new password" }));

    expect(await screen.findByRole("heading", { name: "Sign in to Cove" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/login");
    expect(await screen.findByText("Your password has been reset")).toBeInTheDocument();
  });
});
