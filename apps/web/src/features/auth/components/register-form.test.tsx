import { screen } from "@testing-library/react";
import type { UserEvent } from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { json, mockApi, renderApp } from "../../../test/render-app.tsx";

async function fillForm(user: UserEvent, password: string, confirmPassword: string) {
  await user.type(await screen.findByLabelText("Company name"), "Analytical Engines");
  await user.type(screen.getByLabelText("First name"), "Ada");
  await user.type(screen.getByLabelText("Last name"), "Lovelace");
  await user.type(screen.getByLabelText("Email address"), "ada@example.com");
  await user.type(screen.getByLabelText("Password"), password);
  await user.type(screen.getByLabelText("Confirm password"), confirmPassword);
  await user.click(screen.getByRole("button", { name: "Start free trial" }));
}

describe("register form", () => {
  it("says the passwords do not match, without calling the API", async () => {
    const fetchMock = mockApi({});
    const { user } = renderApp("/register");

    await fillForm(user, "long enough password", "another password");

    expect(await screen.findByText("Passwords do not match")).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("asks for at least 8 characters, without calling the API", async () => {
    const fetchMock = mockApi({});
    const { user } = renderApp("/register");

    await fillForm(user, "short", "short");

    expect(await screen.findByText("Password must be at least 8 characters long")).toBeInTheDocument();
    expect(screen.queryByText("Passwords do not match")).not.toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("requires every field", async () => {
    const fetchMock = mockApi({});
    const { user } = renderApp("/register");

    await user.click(await screen.findByRole("button", { name: "Start free trial" }));

    for (const message of [
      "Company name is required",
      "First name is required",
      "Last name is required",
      "Email is required",
      "Password is required",
    ]) {
      expect(await screen.findByText(message)).toBeInTheDocument();
    }
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows a taken email under the email field", async () => {
    mockApi({
      "POST /api/auth/register": () =>
        json(409, { error: "An account with this email already exists", code: "EMAIL_TAKEN" }),
    });
    const { user } = renderApp("/register?plan=business");

    expect(await screen.findByText(/You picked the/)).toHaveTextContent("Business");
    await fillForm(user, "long enough password", "long enough password");

    const email = screen.getByLabelText("Email address");
    expect(await screen.findAllByText("An account with this email already exists")).not.toHaveLength(0);
    expect(email).toHaveAttribute("aria-invalid", "true");
    expect(email).toHaveAccessibleDescription("An account with this email already exists");
  });
});
