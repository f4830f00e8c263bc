import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { json, mockApi, renderApp, storeSession, testUser } from "../../../test/render-app.tsx";

function signedIn(put: () => Response) {
  storeSession();
  return mockApi({
    "GET /api/auth/me": () => json(200, { user: testUser }),
    "GET /api/settings/security": () => json(200, { twoFactorPolicy: "off" }),
    "PUT /api/settings/security": put,
  });
}

describe("Settings > Security", () => {
  it("everyone includes the admins; saving sends the one policy", async () => {
    const fetchMock = signedIn(() => json(200, { twoFactorPolicy: "everyone" }));
    const { user } = renderApp("/settings?tab=security");
    const form = await screen.findByRole("form", { name: "Security" });
    const admins = within(form).getByRole("checkbox", { name: "Require two-factor sign-in for admins" });
    const save = within(form).getByRole("button", { name: "Save changes" });
    expect(save).toBeDisabled();
    await user.click(within(form).getByRole("checkbox", { name: "Require two-factor sign-in for everyone" }));
    expect(admins).toBeChecked();
    expect(admins).toBeDisabled();
    await user.click(save);
    await screen.findByText("Settings saved");
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === "PUT");
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ twoFactorPolicy: "everyone" });
  });

  it("a refusal is said in the form, with the server's reason", async () => {
    const reason = "Set up two-factor sign-in for yourself first.";
    signedIn(() => json(400, { error: reason, code: "VALIDATION_ERROR" }));
    const { user } = renderApp("/settings?tab=security");
    const form = await screen.findByRole("form", { name: "Security" });
    await user.click(within(form).getByRole("checkbox", { name: "Require two-factor sign-in for admins" }));
    await user.click(within(form).getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(within(form).getByRole("alert")).toHaveTextContent(reason));
  });
});
