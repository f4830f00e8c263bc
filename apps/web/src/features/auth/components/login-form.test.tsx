import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { json, mockApi, renderApp, testUser, trialAnswer } from "../../../test/render-app.tsx";

describe("login form", () => {
  it("names the page in the browser tab, as registration does", async () => {
    mockApi({});
    const { router } = renderApp("/login");
    await screen.findByRole("heading", { name: "Sign in to Cove" });
    await waitFor(() => expect(document.title).toBe("Sign in to Cove · Cove"));
    await router.navigate("/register");
    await waitFor(() => expect(document.title).toBe("Start your free trial · Cove"));
  });

  it("requires email and password before calling the API", async () => {
    const fetchMock = mockApi({});
    const { user } = renderApp("/login");

    await user.click(await screen.findByRole("button", { name: "Sign in" }));

    expect(await screen.findByText("Email is required")).toBeInTheDocument();
    expect(screen.getByText("Password is required")).toBeInTheDocument();
    expect(screen.getByLabelText("Email")).toHaveAttribute("aria-invalid", "true");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows the server's message when the credentials are wrong", async () => {
    mockApi({
      "POST /api/auth/login": () => json(401, { error: "Invalid email or password", code: "INVALID_CREDENTIALS" }),
    });
    const { user, router } = renderApp("/login");

    await user.type(await screen.findByLabelText("Email"), "ada@example.com");
    await user.type(screen.getByLabelText("Password"), "wrong password");
    await user.click(screen.getByRole("button", { name: "Sign in" }));

    expect(await screen.findByRole("alert")).toHaveTextContent("Invalid email or password");
    // Once, by the form: not a second time as a toast.
    expect(screen.getAllByText("Invalid email or password")).toHaveLength(1);
    expect(router.state.location.pathname).toBe("/login");
    expect(localStorage.length).toBe(0);
  });

  it("sends Remember me and stores the session on success", async () => {
    const fetchMock = mockApi({
      "POST /api/auth/login": () => json(200, { token: "new-token", user: testUser }),
      "GET /api/trial/status": () =>
        json(200, {
          ...trialAnswer,
          isTrial: false,
          daysRemaining: 0,
          trialEndsAt: null,
          subscription_status: "active",
        }),
    });
    const { user, router } = renderApp("/login");

    await user.type(await screen.findByLabelText("Email"), "Ada@Example.com");
    await user.type(screen.getByLabelText("Password"), "correct horse");
    await user.click(screen.getByLabelText("Remember me"));
    await user.click(screen.getByRole("button", { name: "Sign in" }));

    expect(await screen.findByRole("heading", { name: "Dashboard" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/dashboard");
    const body: unknown = JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body));
    expect(body).toEqual({ email: "ada@example.com", password: "correct horse", rememberMe: true });
    expect(localStorage.getItem("cove.session")).toContain("new-token");
  });

  it("switches to the forgot-password form and shows the server's answer", async () => {
    const message = "If an account exists for that email, we sent a link to reset the password.";
    mockApi({ "POST /api/auth/forgot-password": () => json(200, { message }) });
    const { user } = renderApp("/login");

    await user.click(await screen.findByRole("button", { name: "Forgot your password?" }));
    await user.type(await screen.findByLabelText("Email"), "ada@example.com");
    await user.click(screen.getByRole("button", { name: "Send reset link" }));

    const form = screen.getByRole("form", { name: "Reset your password" });
    expect(await within(form).findByText(message)).toBeInTheDocument();
  });
});
