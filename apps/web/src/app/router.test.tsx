import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { calls, json, mockApi, renderApp, signedIn, storeSession, testUser } from "../test/render-app.tsx";

describe("auth gate", () => {
  it("sends a guest from /dashboard to /login", async () => {
    const fetchMock = mockApi({});
    const { router } = renderApp("/dashboard");

    expect(await screen.findByRole("heading", { name: "Sign in to Cove" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/login");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("brings a guest back to the page they asked for after signing in", async () => {
    const fetchMock = mockApi({
      "POST /api/auth/login": () => json(200, { token: "new-token", user: testUser }),
    });
    const { router, user } = renderApp("/tickets?status=open");

    await user.type(await screen.findByLabelText("Email"), "ada@example.com");
    await user.type(screen.getByLabelText("Password"), "correct horse");
    await user.click(screen.getByRole("button", { name: "Sign in" }));

    expect(await screen.findByRole("heading", { name: "Tickets" })).toBeInTheDocument();
    expect(router.state.location.pathname + router.state.location.search).toBe("/tickets?status=open");
    expect(calls(fetchMock)[0]).toBe("POST /api/auth/login");
    // The list it lands on is filtered as the address asked.
    await waitFor(() => expect(calls(fetchMock)).toContain("GET /api/tickets?page=1&limit=25&status=open"));
  });

  it("sends a user with a stored session from /login to /dashboard", async () => {
    const fetchMock = signedIn();
    const { router } = renderApp("/login");

    expect(await screen.findByRole("heading", { name: "Dashboard" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/dashboard");
    expect(await screen.findByText("Your free trial expires in 10 days")).toBeInTheDocument();
    const me = fetchMock.mock.calls.find(([input]) => String(input) === "/api/auth/me");
    expect(new Headers(me?.[1]?.headers).get("Authorization")).toBe("Bearer stored-token");
  });

  it("signs out a stored session the server no longer accepts", async () => {
    storeSession();
    mockApi({ "GET /api/auth/me": () => json(401, { error: "Your session has ended", code: "UNAUTHORIZED" }) });
    const { router } = renderApp("/dashboard");

    expect(await screen.findByRole("heading", { name: "Sign in to Cove" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/login");
    expect(localStorage.length).toBe(0);
  });

  it("shows a 404 page with a way home for an unknown path", async () => {
    mockApi({});
    renderApp("/no/such/page");

    expect(await screen.findByRole("heading", { name: "Page not found" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go home" })).toHaveAttribute("href", "/");
    expect(screen.getByRole("link", { name: "Go to the dashboard" })).toHaveAttribute("href", "/dashboard");
  });
});
