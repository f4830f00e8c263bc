import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { json, mockApi, renderApp, storeSession, testUser } from "../../../test/render-app.tsx";
import { general } from "../test/settings-fixtures.ts";

function signedIn(put: () => Response) {
  storeSession();
  return mockApi({
    "GET /api/auth/me": () => json(200, { user: testUser }),
    "GET /api/settings/general": () => json(200, general),
    "PUT /api/settings/general": put,
  });
}

async function saveColour(colour: string) {
  const { user } = renderApp("/settings");
  const field = await screen.findByLabelText("Brand colour");
  await user.clear(field);
  await user.type(field, colour);
  await user.click(screen.getByRole("button", { name: "Save changes" }));
  return field;
}

describe("Settings > General", () => {
  it("a refused brand colour is said once, beside the field", async () => {
    const message = "Brand colour must be a hex colour such as #4f46e5";
    signedIn(() =>
      json(400, { error: message, code: "VALIDATION_ERROR", details: [{ path: "brand_color", message }] }),
    );
    const field = await saveColour("#12345");
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(field).toHaveAccessibleDescription(expect.stringContaining(message));
    expect(screen.getAllByText(message)).toHaveLength(1);
    expect(screen.queryByText("Failed to save settings")).not.toBeInTheDocument();
  });

  it("a help center address the server refuses is said beside its field, and the name is checked before sending", async () => {
    const message = "That help center address is taken";
    const fetchMock = signedIn(() =>
      json(409, { error: message, code: "SLUG_TAKEN", details: [{ path: "slug", message }] }),
    );
    const { user } = renderApp("/settings");
    const name = await screen.findByLabelText(/Organization name/);
    await user.clear(name);
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    expect(await screen.findByText("Organization name is required")).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === "PUT")).toBe(false);

    await user.type(name, "Engines");
    const slug = screen.getByLabelText("Help center address");
    await user.clear(slug);
    await user.type(slug, "Babbage");
    expect(slug).toHaveValue("babbage");
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(slug).toHaveAccessibleDescription(message));
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === "PUT");
    expect(JSON.parse(String(put?.[1]?.body))).toMatchObject({ name: "Engines", slug: "babbage" });
    expect(screen.queryByText("Failed to save settings")).not.toBeInTheDocument();
  });

  it("another failure is one toast: Failed to save settings, with the server's reason beneath", async () => {
    const reason = "Your organization is read-only until its subscription is paid.";
    signedIn(() => json(403, { error: reason, code: "FORBIDDEN" }));
    await saveColour("#0f766e");
    const title = await screen.findByText("Failed to save settings");
    const toast = title.closest("[data-sonner-toast]") as HTMLElement;
    expect(within(toast).getByText(reason)).toBeInTheDocument();
    expect(screen.getAllByText(reason)).toHaveLength(1);
  });
});
