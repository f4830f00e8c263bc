import type { GeneralSettings } from "@cove/contract/settings.ts";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { json, mockApi, renderApp, storeSession, testUser } from "../../../test/render-app.tsx";

const general: GeneralSettings = {
  name: "Analytical Engines",
  slug: "analytical-engines",
  timezone: "Europe/London",
  brand_color: "#4f46e5",
  logo_url: null,
  help_center_url: "http://localhost:3000/help/analytical-engines",
};

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
